package dev.pointsman.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.gateway.app.LocalGateway;
import dev.pointsman.gateway.config.GatewayConfig;
import dev.pointsman.gateway.config.ListenSection;
import dev.pointsman.gateway.config.PickerSection;
import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.server.Fleet;
import dev.pointsman.sim.server.FleetConfig;
import io.envoyproxy.envoy.service.ext_proc.v3.BodyResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the gateway does when the picker is down or misbehaves, per {@code failureModeAllow} and the
 * fallback route, as Envoy does with the shipped config.
 */
class FailureModeIT {
  private static Fleet fleet;
  private static String pod;

  @BeforeAll
  static void start() {
    fleet =
        Fleet.start(
            new FleetConfig(List.of(Stack.pod("fallback", Stack.MODEL, List.of())), 1L, null),
            GpuProfiles.builtIn());
    pod = fleet.urls().getFirst().substring("http://".length());
  }

  @AfterAll
  static void stop() {
    fleet.close();
  }

  @Test
  void pickerDownFailsClosedWith503AndRetryAfter() throws Exception {
    try (LocalGateway gw = gateway(deadPicker(), c -> c.withFallback(List.of(pod)))) {
      HttpResponse<String> res = post(gw);

      // Envoy's local 500 for a failed ext_proc stream, remapped by local_reply_config
      assertThat(res.statusCode()).isEqualTo(503);
      assertThat(res.headers().firstValue("retry-after")).hasValue("1");
      // no model server saw it: a fleet in front may resend it to another cluster
      assertThat(res.headers().firstValue("x-pointsman-not-started")).hasValue("true");
      assertThat(res.body()).contains("\"error\"").contains("endpoint picker");
      assertThat(res.headers().firstValue("x-pointsman-served-by")).isEmpty();
    }
  }

  @Test
  void pickerDownFailsOpenThroughTheFallbackRoute() throws Exception {
    try (LocalGateway gw =
        gateway(deadPicker(), c -> c.withFailureModeAllow(true).withFallback(List.of(pod)))) {
      HttpResponse<String> res = post(gw);

      assertThat(res.statusCode()).isEqualTo(200);
      assertThat(res.headers().firstValue("x-pointsman-served-by")).hasValue("fallback");
    }
  }

  @Test
  void failOpenWithoutFallbackIs503() throws Exception {
    try (LocalGateway gw = gateway(deadPicker(), c -> c.withFailureModeAllow(true))) {
      HttpResponse<String> res = post(gw);

      assertThat(res.statusCode()).isEqualTo(503);
      assertThat(res.body()).contains("\"error\"");
    }
  }

  @Test
  void aPickerClosingWithoutAnsweringLetsTheRequestContinueUnprocessed() throws Exception {
    try (FakePicker fake = new FakePicker((req, out) -> out.onCompleted());
        LocalGateway gw =
            gateway(PickerSection.plaintext(fake.address()), c -> c.withFallback(List.of(pod)))) {
      HttpResponse<String> res = post(gw);

      assertThat(res.statusCode()).isEqualTo(200);
      assertThat(res.headers().firstValue("x-pointsman-served-by")).hasValue("fallback");
    }
  }

  @Test
  void aDestinationListIsInvalidForOriginalDst() throws Exception {
    try (FakePicker fake = new FakePicker(FakePicker.routingTo(pod + "," + pod));
        LocalGateway gw = gateway(PickerSection.plaintext(fake.address()), c -> c)) {
      HttpResponse<String> res = post(gw);

      assertThat(res.statusCode()).isEqualTo(503);
    }
  }

  @Test
  void aMinimalProcessorRoutesWithClearRouteCache() throws Exception {
    try (FakePicker fake = new FakePicker(FakePicker.routingTo(pod));
        LocalGateway gw = gateway(PickerSection.plaintext(fake.address()), c -> c)) {
      HttpResponse<String> res = post(gw);

      assertThat(res.statusCode()).isEqualTo(200);
      assertThat(res.headers().firstValue("x-pointsman-served-by")).hasValue("fallback");
    }
  }

  @Test
  void aBufferedBodyReplyInFullDuplexModeIsASpuriousMessage() throws Exception {
    try (FakePicker fake =
            new FakePicker(
                (req, out) -> {
                  if (req.hasRequestBody()) {
                    out.onNext(
                        ProcessingResponse.newBuilder()
                            .setRequestBody(BodyResponse.getDefaultInstance())
                            .build());
                  }
                });
        LocalGateway gw = gateway(PickerSection.plaintext(fake.address()), c -> c)) {
      HttpResponse<String> res = post(gw);

      assertThat(res.statusCode()).isEqualTo(503);
      assertThat(res.headers().firstValue("retry-after")).hasValue("1");
    }
  }

  private static PickerSection deadPicker() throws Exception {
    return PickerSection.plaintext(refusing());
  }

  /** A loopback {@code ip:port} nothing listens on: connections to it are refused. */
  static String refusing() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return "127.0.0.1:" + s.getLocalPort();
    }
  }

  static LocalGateway gateway(PickerSection picker, UnaryOperator<GatewayConfig> tweak) {
    return LocalGateway.start(
        tweak.apply(
            GatewayConfig.of(
                new ListenSection("127.0.0.1", 0, "plaintext", null, null, null), picker)));
  }

  static HttpResponse<String> post(LocalGateway gw) throws Exception {
    HttpRequest req =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gw.port() + "/v1/chat/completions"))
            .timeout(Duration.ofSeconds(20))
            .header("content-type", "application/json")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    Stack.chat(Stack.MODEL, "hello fallback", false, 2)))
            .build();
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .build()
        .send(req, HttpResponse.BodyHandlers.ofString());
  }
}
