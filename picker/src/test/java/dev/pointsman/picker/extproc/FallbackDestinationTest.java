package dev.pointsman.picker.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import dev.pointsman.extproc.ExtProcSettings;
import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.extproc.testing.Replies;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The destination header and the {@code envoy.lb} metadata never disagree: with an ORIGINAL_DST
 * data plane both hold the primary alone (the fallbacks ride in their own key), with an
 * override_host data plane both hold the primary then the fallbacks.
 */
class FallbackDestinationTest {

  private static ProcessingResponse route(Fixture fx) {
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    s.requestBody(Replies.chat(Fixture.MODEL, "hello", false), true);
    ProcessingResponse headers = s.next();
    assertThat(headers.hasRequestHeaders()).isTrue();
    return headers;
  }

  private static Struct lb(ProcessingResponse r) {
    return r.getDynamicMetadata().getFieldsOrThrow("envoy.lb").getStructValue();
  }

  @Test
  void originalDstSendsThePrimaryInBothAndTheFallbacksApart() throws Exception {
    try (Fixture fx =
        new Fixture(
            ExtProcSettings.DEFAULTS,
            null,
            ExtProcObserver.NOOP,
            new PickerOptions(PickerOptions.DataPlane.ORIGINAL_DST, false))) {
      fx.fallbacks(1);
      ProcessingResponse r = route(fx);
      Map<String, String> set = Replies.setHeaders(r.getRequestHeaders().getResponse());
      String header = set.get("x-gateway-destination-endpoint");
      assertThat(header).as("exactly one ip:port").matches("10\\.0\\.0\\.[12]:8000");
      assertThat(Replies.destinationMetadata(r)).isEqualTo(header);
      String other = header.equals("10.0.0.1:8000") ? "10.0.0.2:8000" : "10.0.0.1:8000";
      assertThat(
              lb(r).getFieldsOrThrow("x-gateway-destination-endpoint-fallbacks").getStringValue())
          .isEqualTo(other);
    }
  }

  @Test
  void originalDstIsTheDefaultAndWithoutFallbacksSendsNoFallbackKey() throws Exception {
    try (Fixture fx = new Fixture(ExtProcSettings.DEFAULTS)) {
      ProcessingResponse r = route(fx);
      String header =
          Replies.setHeaders(r.getRequestHeaders().getResponse())
              .get("x-gateway-destination-endpoint");
      assertThat(Replies.destinationMetadata(r)).isEqualTo(header);
      assertThat(lb(r).containsFields("x-gateway-destination-endpoint-fallbacks")).isFalse();
    }
  }

  @Test
  void overrideHostSendsTheSameListInTheHeaderAndTheMetadata() throws Exception {
    try (Fixture fx =
        new Fixture(
            ExtProcSettings.DEFAULTS,
            null,
            ExtProcObserver.NOOP,
            new PickerOptions(PickerOptions.DataPlane.OVERRIDE_HOST, false))) {
      fx.fallbacks(1);
      ProcessingResponse r = route(fx);
      String header =
          Replies.setHeaders(r.getRequestHeaders().getResponse())
              .get("x-gateway-destination-endpoint");
      assertThat(header).isIn("10.0.0.1:8000,10.0.0.2:8000", "10.0.0.2:8000,10.0.0.1:8000");
      assertThat(Replies.destinationMetadata(r)).isEqualTo(header);
    }
  }
}
