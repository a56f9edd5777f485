package dev.pointsman.picker.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import dev.pointsman.extproc.ExtProcSettings;
import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.extproc.testing.Replies;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Gateway API Inference Extension conformance hooks ({@code test-epp-endpoint-selection} in,
 * {@code x-conformance-test-served-endpoint} out), on only when configured; and the subset hint in
 * each shape a proxy may send it.
 */
class ConformanceHooksTest {
  private static final String SELECTION = "test-epp-endpoint-selection";
  private static final String SERVED = "x-conformance-test-served-endpoint";

  private static Fixture fixture(boolean hooks) throws Exception {
    return new Fixture(
        ExtProcSettings.DEFAULTS,
        null,
        ExtProcObserver.NOOP,
        new PickerOptions(PickerOptions.DataPlane.ORIGINAL_DST, hooks));
  }

  private static ProcessingResponse send(Fixture fx, Metadata metadata, String... headers) {
    EnvoyReplay s =
        fx.stream().requestHeaders("POST", "/v1/chat/completions", false, metadata, headers);
    s.requestBody(Replies.chat(Fixture.MODEL, "hi", false), true);
    return s.next();
  }

  private static String destination(ProcessingResponse r) {
    assertThat(r.hasRequestHeaders()).as("routed, got %s", r).isTrue();
    return Replies.setHeaders(r.getRequestHeaders().getResponse())
        .get("x-gateway-destination-endpoint");
  }

  @Test
  void withHooksTheSelectionHeaderRestrictsTheCandidates() throws Exception {
    try (Fixture fx = fixture(true)) {
      for (int i = 0; i < 8; i++) {
        assertThat(destination(send(fx, null, SELECTION, "10.0.0.2"))).isEqualTo("10.0.0.2:8000");
        assertThat(destination(send(fx, null, SELECTION, "10.0.0.9:8000, 10.0.0.1:8000")))
            .isEqualTo("10.0.0.1:8000");
      }
      assertThat(destination(send(fx, null, SELECTION, "10.0.0.1:9999,10.0.0.2")))
          .as("ip:port matches that port only; a bare ip matches every port")
          .isEqualTo("10.0.0.2:8000");
      ProcessingResponse none = send(fx, null, SELECTION, "256.256.256.256");
      Replies.assertError(none, 503, null);
    }
  }

  @Test
  void withoutHooksTheSelectionHeaderIsIgnored() throws Exception {
    try (Fixture fx = fixture(false)) {
      for (int i = 0; i < 4; i++) {
        assertThat(destination(send(fx, null, SELECTION, "10.9.9.9")))
            .isIn("10.0.0.1:8000", "10.0.0.2:8000");
      }
    }
  }

  @Test
  void withHooksTheServedEndpointIsEchoedOnTheResponse() throws Exception {
    try (Fixture fx = fixture(true)) {
      EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
      s.requestBody(Replies.chat(Fixture.MODEL, "hi", true), true);
      String picked = destination(s.next());
      s.next();
      s.responseHeaders(200, false, picked);
      ProcessingResponse r = s.next();
      assertThat(r.hasResponseHeaders()).isTrue();
      assertThat(Replies.setHeaders(r.getResponseHeaders().getResponse()))
          .containsEntry(SERVED, picked);

      EnvoyReplay missing = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
      missing.requestBody(Replies.chat(Fixture.MODEL, "hi", true), true);
      missing.next(2);
      missing.responseHeaders(200, false, null);
      assertThat(Replies.setHeaders(missing.next().getResponseHeaders().getResponse()).get(SERVED))
          .as("a gateway that does not report the served endpoint fails the check")
          .startsWith("fail:");
    }
  }

  @Test
  void withoutHooksNothingIsAddedToTheResponse() throws Exception {
    try (Fixture fx = fixture(false)) {
      EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
      s.requestBody(Replies.chat(Fixture.MODEL, "hi", true), true);
      String picked = destination(s.next());
      s.next();
      s.responseHeaders(200, false, picked);
      ProcessingResponse r = s.next();
      assertThat(r.hasResponseHeaders()).isTrue();
      assertThat(r.getResponseHeaders().getResponse().getHeaderMutation().getSetHeadersCount())
          .isZero();
    }
  }

  private static Metadata subset(Value value) {
    return Metadata.newBuilder()
        .putFilterMetadata(
            "envoy.lb.subset_hint",
            Struct.newBuilder().putFields("x-gateway-destination-endpoint-subset", value).build())
        .build();
  }

  private static Value string(String s) {
    return Value.newBuilder().setStringValue(s).build();
  }

  @Test
  void theSubsetHintMayBeACommaStringOrAListWithBareIps() throws Exception {
    try (Fixture fx = fixture(false)) {
      Map<String, Metadata> shapes =
          Map.of(
              "comma string", subset(string("10.0.0.9:8000, 10.0.0.2:8000")),
              "bare ip", subset(string("10.0.0.2")),
              "list with a comma item",
                  subset(
                      Value.newBuilder()
                          .setListValue(
                              ListValue.newBuilder()
                                  .addValues(string("10.0.0.9:8000,10.0.0.1:9999"))
                                  .addValues(string("10.0.0.2")))
                          .build()));
      shapes.forEach(
          (shape, hint) -> {
            for (int i = 0; i < 4; i++) {
              assertThat(destination(send(fx, hint))).as(shape).isEqualTo("10.0.0.2:8000");
            }
          });
    }
  }
}
