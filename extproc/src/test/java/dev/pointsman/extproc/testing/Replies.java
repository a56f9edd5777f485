package dev.pointsman.extproc.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import io.envoyproxy.envoy.service.ext_proc.v3.CommonResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ImmediateResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.StreamedBodyResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reading the processor's replies in tests. */
public final class Replies {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Replies() {}

  /** Header mutations as name → raw value; fails if any sets {@code value} instead. */
  public static Map<String, String> setHeaders(CommonResponse common) {
    Map<String, String> out = new LinkedHashMap<>();
    for (HeaderValueOption o : common.getHeaderMutation().getSetHeadersList()) {
      assertThat(o.getHeader().getValue())
          .as("header %s uses raw_value only", o.getHeader().getKey())
          .isEmpty();
      out.put(o.getHeader().getKey(), o.getHeader().getRawValue().toString(StandardCharsets.UTF_8));
    }
    return out;
  }

  /** The header names a mutation removes. */
  public static java.util.List<String> removedHeaders(CommonResponse common) {
    return java.util.List.copyOf(common.getHeaderMutation().getRemoveHeadersList());
  }

  public static Map<String, String> setHeaders(ImmediateResponse immediate) {
    Map<String, String> out = new LinkedHashMap<>();
    for (HeaderValueOption o : immediate.getHeaders().getSetHeadersList()) {
      out.put(o.getHeader().getKey(), o.getHeader().getRawValue().toString(StandardCharsets.UTF_8));
    }
    return out;
  }

  /** The request-body chunk a processor echoed in FULL_DUPLEX_STREAMED mode. */
  public static StreamedBodyResponse echoedChunk(ProcessingResponse r) {
    return r.getRequestBody().getResponse().getBodyMutation().getStreamedResponse();
  }

  public static String destinationMetadata(ProcessingResponse r) {
    return r.getDynamicMetadata()
        .getFieldsOrThrow("envoy.lb")
        .getStructValue()
        .getFieldsOrThrow("x-gateway-destination-endpoint")
        .getStringValue();
  }

  /** Asserts an immediate response with the status and an OpenAI error body; returns the body. */
  public static JsonNode assertError(ProcessingResponse r, int status, String code) {
    assertThat(r.hasImmediateResponse()).as("immediate response, got %s", r).isTrue();
    ImmediateResponse ir = r.getImmediateResponse();
    assertThat(ir.getStatus().getCodeValue()).isEqualTo(status);
    assertThat(setHeaders(ir)).containsEntry("content-type", "application/json");
    try {
      JsonNode body = JSON.readTree(ir.getBody().toStringUtf8());
      assertThat(body.path("error").path("message").asText()).isNotBlank();
      assertThat(body.path("error").path("type").asText()).isNotBlank();
      if (code != null) {
        assertThat(body.path("error").path("code").asText()).isEqualTo(code);
      }
      return body;
    } catch (IOException e) {
      throw new AssertionError("error body is not JSON: " + ir.getBody().toStringUtf8(), e);
    }
  }

  public static byte[] chat(String model, String userText, boolean stream) {
    String json =
        "{\"model\":\""
            + model
            + "\",\"stream\":"
            + stream
            + ",\"messages\":[{\"role\":\"system\",\"content\":\"You are terse.\"},"
            + "{\"role\":\"user\",\"content\":\""
            + userText
            + "\"}]}";
    return json.getBytes(StandardCharsets.UTF_8);
  }
}
