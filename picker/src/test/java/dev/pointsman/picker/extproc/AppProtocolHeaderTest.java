package dev.pointsman.picker.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.extproc.ExtProcSettings;
import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.extproc.testing.Replies;
import dev.pointsman.picker.scheduling.AppProtocol;
import dev.pointsman.picker.scheduling.PoolSnapshot;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A pool whose model servers speak h2c ({@code spec.appProtocol: kubernetes.io/h2c}) tells the data
 * plane so in {@code x-pointsman-app-protocol}; an HTTP/1.1 pool sends no such header.
 */
class AppProtocolHeaderTest {

  private static Map<String, String> routedHeaders(Fixture fx) {
    EnvoyReplay s = fx.stream().requestHeaders("POST", "/v1/chat/completions", false);
    s.requestBody(Replies.chat(Fixture.MODEL, "hello", false), true);
    ProcessingResponse headers = s.next();
    assertThat(headers.hasRequestHeaders()).isTrue();
    return Replies.setHeaders(headers.getRequestHeaders().getResponse());
  }

  @Test
  void anH2cPoolIsAnnouncedToTheDataPlane() throws Exception {
    try (Fixture fx = new Fixture(ExtProcSettings.DEFAULTS)) {
      PoolSnapshot http = fx.pools.get("gpu-a");
      fx.pools.put("gpu-a", new PoolSnapshot("gpu-a", http.endpoints(), AppProtocol.H2C));
      Map<String, String> set = routedHeaders(fx);
      assertThat(set).containsEntry(PickerHandler.APP_PROTOCOL_HEADER, "kubernetes.io/h2c");
      assertThat(set).containsKey("x-gateway-destination-endpoint");
    }
  }

  @Test
  void anHttpPoolSendsNoProtocolHeader() throws Exception {
    try (Fixture fx = new Fixture(ExtProcSettings.DEFAULTS)) {
      assertThat(routedHeaders(fx)).doesNotContainKey(PickerHandler.APP_PROTOCOL_HEADER);
    }
  }
}
