package dev.pointsman.extproc;

import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import dev.pointsman.inference.error.OpenAiError;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import io.envoyproxy.envoy.service.ext_proc.v3.BodyMutation;
import io.envoyproxy.envoy.service.ext_proc.v3.BodyResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.CommonResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.HeaderMutation;
import io.envoyproxy.envoy.service.ext_proc.v3.HeadersResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ImmediateResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.StreamedBodyResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.TrailersResponse;
import io.envoyproxy.envoy.type.v3.HttpStatus;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Builds every {@code ProcessingResponse} the picker sends, in one place. Header values are always
 * set through {@code raw_value}: Envoy ignores {@code value} when a processor sets raw values, and
 * rejects a mutation that sets both.
 */
public final class Responses {
  public static final String DESTINATION = "x-gateway-destination-endpoint";
  public static final String LB_NAMESPACE = "envoy.lb";

  /**
   * Metadata key under {@code envoy.lb} naming the endpoint that actually served; also the response
   * header a stock Envoy adds from {@code %UPSTREAM_HOST%} (route {@code response_headers_to_add})
   * to say the same, which the picker reads and removes (docs/rollout.md).
   */
  public static final String SERVED_KEY = "x-gateway-destination-endpoint-served";

  /**
   * Metadata key under {@code envoy.lb} carrying the fallback endpoints apart from the destination,
   * for data planes whose destination must be a single address (ORIGINAL_DST).
   */
  public static final String FALLBACKS_KEY = "x-gateway-destination-endpoint-fallbacks";

  private Responses() {}

  /** Continue with the request headers unchanged. */
  public static ProcessingResponse continueRequestHeaders() {
    return ProcessingResponse.newBuilder()
        .setRequestHeaders(HeadersResponse.getDefaultInstance())
        .build();
  }

  /** Continue with the response headers unchanged. */
  public static ProcessingResponse continueResponseHeaders() {
    return ProcessingResponse.newBuilder()
        .setResponseHeaders(HeadersResponse.getDefaultInstance())
        .build();
  }

  /** Continue with the response headers, setting {@code headers} on them. */
  public static ProcessingResponse setResponseHeaders(Map<String, String> headers) {
    return mutateResponseHeaders(headers, java.util.List.of());
  }

  /**
   * Continue with the response headers, setting {@code set} on them and removing {@code remove}.
   */
  public static ProcessingResponse mutateResponseHeaders(
      Map<String, String> set, java.util.List<String> remove) {
    HeaderMutation.Builder mutation = HeaderMutation.newBuilder();
    set.forEach((k, v) -> mutation.addSetHeaders(header(k, v)));
    mutation.addAllRemoveHeaders(remove);
    return ProcessingResponse.newBuilder()
        .setResponseHeaders(
            HeadersResponse.newBuilder()
                .setResponse(CommonResponse.newBuilder().setHeaderMutation(mutation)))
        .build();
  }

  /**
   * The routing reply on the request headers (FULL_DUPLEX_STREAMED): header mutations, and the
   * destination metadata unless {@code destination} is null.
   */
  public static ProcessingResponse routeOnHeaders(String destination, Map<String, String> headers) {
    return routeOnHeaders(destination, null, headers);
  }

  /** {@link #routeOnHeaders(String, Map)} with the fallbacks metadata, unless null. */
  public static ProcessingResponse routeOnHeaders(
      String destination, String fallbacks, Map<String, String> headers) {
    ProcessingResponse.Builder r =
        ProcessingResponse.newBuilder()
            .setRequestHeaders(HeadersResponse.newBuilder().setResponse(routing(headers)));
    return withDestination(r, destination, fallbacks);
  }

  /** The routing reply on a buffered request body: header mutation in the body response. */
  public static ProcessingResponse routeOnBufferedBody(
      String destination, Map<String, String> headers) {
    return routeOnBufferedBody(destination, headers, null);
  }

  /** The routing reply on a buffered body, replacing the body when {@code newBody} is not null. */
  public static ProcessingResponse routeOnBufferedBody(
      String destination, Map<String, String> headers, ByteString newBody) {
    return routeOnBufferedBody(destination, null, headers, newBody);
  }

  /** {@link #routeOnBufferedBody(String, Map, ByteString)} with the fallbacks metadata. */
  public static ProcessingResponse routeOnBufferedBody(
      String destination, String fallbacks, Map<String, String> headers, ByteString newBody) {
    CommonResponse.Builder common = routing(headers).toBuilder();
    if (newBody != null) {
      common.setBodyMutation(BodyMutation.newBuilder().setBody(newBody));
    }
    ProcessingResponse.Builder r =
        ProcessingResponse.newBuilder()
            .setRequestBody(BodyResponse.newBuilder().setResponse(common));
    return withDestination(r, destination, fallbacks);
  }

  private static ProcessingResponse withDestination(
      ProcessingResponse.Builder r, String destination, String fallbacks) {
    if (destination != null) {
      r.setDynamicMetadata(
          fallbacks == null || fallbacks.isEmpty()
              ? RoutingProtos.metadata(destination)
              : destinationMetadata(destination, fallbacks));
    }
    return r.build();
  }

  /** One echoed request-body chunk in FULL_DUPLEX_STREAMED mode. */
  public static ProcessingResponse requestBodyChunk(ByteString chunk, boolean endOfStream) {
    return ProcessingResponse.newBuilder()
        .setRequestBody(BodyResponse.newBuilder().setResponse(streamed(chunk, endOfStream)))
        .build();
  }

  /** One passed-through response-body chunk in FULL_DUPLEX_STREAMED mode. */
  public static ProcessingResponse responseBodyChunk(ByteString chunk, boolean endOfStream) {
    return ProcessingResponse.newBuilder()
        .setResponseBody(BodyResponse.newBuilder().setResponse(streamed(chunk, endOfStream)))
        .build();
  }

  /** Continue with a buffered or streamed response body unchanged. */
  public static ProcessingResponse continueResponseBody() {
    return ProcessingResponse.newBuilder()
        .setResponseBody(BodyResponse.getDefaultInstance())
        .build();
  }

  public static ProcessingResponse requestTrailers() {
    return ProcessingResponse.newBuilder()
        .setRequestTrailers(TrailersResponse.getDefaultInstance())
        .build();
  }

  public static ProcessingResponse responseTrailers() {
    return ProcessingResponse.newBuilder()
        .setResponseTrailers(TrailersResponse.getDefaultInstance())
        .build();
  }

  /** An error answered directly to the client, with an OpenAI-style JSON body. */
  public static ProcessingResponse error(OpenAiError error, int retryAfterSeconds) {
    return error(error, retryAfterSeconds, Map.of());
  }

  /**
   * Set to {@code true} on an answer a gateway gave for a request that reached no model server
   * because it cannot take it now (429, 5xx): another cluster may. The fleet Envoy the chart
   * renders resends on it (its retry policy's {@code retriable_headers}).
   */
  public static final String NOT_STARTED = "x-pointsman-not-started";

  /**
   * Whether an error of this status, answered by the gateway itself, says that it cannot take the
   * request now (429 and 5xx), as opposed to a request no gateway would take (4xx).
   */
  public static boolean unavailableNow(int status) {
    return status == 429 || status >= 500;
  }

  /** An error answered directly to the client, also setting {@code extra} headers. */
  public static ProcessingResponse error(
      OpenAiError error, int retryAfterSeconds, Map<String, String> extra) {
    HeaderMutation.Builder headers =
        HeaderMutation.newBuilder().addSetHeaders(header("content-type", "application/json"));
    if (retryAfterSeconds > 0) {
      headers.addSetHeaders(header("retry-after", Integer.toString(retryAfterSeconds)));
    }
    if (unavailableNow(error.httpStatus())) {
      headers.addSetHeaders(header(NOT_STARTED, "true"));
    }
    extra.forEach((k, v) -> headers.addSetHeaders(header(k, v)));
    return immediate(error.httpStatus(), headers, error.toJson(), error.code());
  }

  /** An error answered to a {@code HEAD} request: its status and headers, no body. */
  public static ProcessingResponse errorWithoutBody(OpenAiError error) {
    HeaderMutation.Builder headers =
        HeaderMutation.newBuilder().addSetHeaders(header("content-type", "application/json"));
    return immediate(error.httpStatus(), headers, "", error.code());
  }

  /** A successful direct answer (e.g. {@code GET /v1/models}). */
  public static ProcessingResponse ok(String json) {
    return ok(json, false);
  }

  /** A successful direct answer; to a {@code HEAD} request ({@code headOnly}) without the body. */
  public static ProcessingResponse ok(String json, boolean headOnly) {
    HeaderMutation.Builder headers =
        HeaderMutation.newBuilder().addSetHeaders(header("content-type", "application/json"));
    return immediate(200, headers, headOnly ? "" : json, "answered_by_picker");
  }

  private static ProcessingResponse immediate(
      int status, HeaderMutation.Builder headers, String body, String details) {
    return ProcessingResponse.newBuilder()
        .setImmediateResponse(
            ImmediateResponse.newBuilder()
                .setStatus(HttpStatus.newBuilder().setCodeValue(status))
                .setHeaders(headers)
                .setBody(ByteString.copyFromUtf8(body))
                .setDetails(details == null ? "" : details))
        .build();
  }

  private static CommonResponse routing(Map<String, String> headers) {
    HeaderMutation.Builder mutation = HeaderMutation.newBuilder();
    for (Map.Entry<String, String> h : headers.entrySet()) {
      String name = h.getKey();
      mutation.addSetHeaders(
          RoutingProtos.repeats(name)
              ? RoutingProtos.header(name, h.getValue())
              : header(name, h.getValue()));
    }
    return CommonResponse.newBuilder().setHeaderMutation(mutation).setClearRouteCache(true).build();
  }

  private static CommonResponse streamed(ByteString chunk, boolean endOfStream) {
    return CommonResponse.newBuilder()
        .setBodyMutation(
            BodyMutation.newBuilder()
                .setStreamedResponse(
                    StreamedBodyResponse.newBuilder().setBody(chunk).setEndOfStream(endOfStream)))
        .build();
  }

  public static Struct destinationMetadata(String destination) {
    return destinationMetadata(destination, null);
  }

  /**
   * The {@code envoy.lb} metadata: the destination, and the fallbacks under {@link #FALLBACKS_KEY}
   * unless {@code fallbacks} is null or empty.
   */
  public static Struct destinationMetadata(String destination, String fallbacks) {
    Struct.Builder builder =
        Struct.newBuilder()
            .putFields(DESTINATION, Value.newBuilder().setStringValue(destination).build());
    if (fallbacks != null && !fallbacks.isEmpty()) {
      builder.putFields(FALLBACKS_KEY, Value.newBuilder().setStringValue(fallbacks).build());
    }
    Struct lb = builder.build();
    return Struct.newBuilder()
        .putFields(LB_NAMESPACE, Value.newBuilder().setStructValue(lb).build())
        .build();
  }

  public static HeaderValueOption header(String name, String value) {
    return HeaderValueOption.newBuilder()
        .setHeader(
            HeaderValue.newBuilder()
                .setKey(name)
                .setRawValue(ByteString.copyFrom(value, StandardCharsets.UTF_8)))
        .setAppendAction(HeaderValueOption.HeaderAppendAction.OVERWRITE_IF_EXISTS_OR_ADD)
        .build();
  }
}
