package dev.pointsman.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.gateway.app.LocalGateway;
import dev.pointsman.gateway.config.GatewayConfig;
import dev.pointsman.gateway.config.LimitSection;
import dev.pointsman.gateway.config.ListenSection;
import dev.pointsman.gateway.config.PickerSection;
import dev.pointsman.gateway.config.TimeoutSection;
import io.micrometer.core.instrument.Counter;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The client listener's limits and timeouts, as the shipped Envoy config sets them, on HTTP/1.1 and
 * HTTP/2: header block size, request headers timeout, idle connection timeout, concurrent streams.
 * Timeouts are configured short; the tests wait for their effect, never for a duration.
 */
class ListenerLimitsIT {
  private FakePicker silentPicker;

  @BeforeEach
  void start() throws Exception {
    silentPicker = new FakePicker((req, out) -> {}); // never answers: streams stay open
  }

  @AfterEach
  void stop() throws Exception {
    silentPicker.close();
  }

  @Test
  void anOversizedHeaderOnHttp2Gets431OnItsStreamAndTheConnectionLives() throws Exception {
    try (Stack stack =
        Stack.start(
            List.of(Stack.pod("main-a", Stack.MODEL, List.of())),
            Stack.pickerHeader()
                + """
                models:
                  - {name: llama-8b, pools: [{pool: main}]}
                pools:
                  - {name: main, endpoints: [{address: "%s"}]}
                """,
            c -> c.withLimits(LimitSection.DEFAULTS.withMaxHeaderBytes(16 << 10)))) {
      // a streamed answer in progress on the connection...
      HttpResponse<InputStream> streaming =
          stack.http2.send(
              stack
                  .post("/v1/chat/completions", Stack.chat(Stack.MODEL, "count", true, 30))
                  .build(),
              HttpResponse.BodyHandlers.ofInputStream());
      BufferedReader events =
          new BufferedReader(new InputStreamReader(streaming.body(), StandardCharsets.UTF_8));
      assertThat(events.readLine()).startsWith("data: ");

      // ...while another stream sends 18 KiB of headers
      HttpResponse<String> big =
          stack.send(
              stack.http2,
              stack
                  .post("/v1/chat/completions", Stack.chat(Stack.MODEL, "hi", false, 2))
                  .header("x-big", "a".repeat(18 << 10))
                  .build());

      assertThat(big.statusCode()).isEqualTo(431);
      assertThat(big.body()).contains("\"error\"").contains("headers_too_large");
      assertThat(big.version()).isEqualTo(java.net.http.HttpClient.Version.HTTP_2);
      String rest = String.join("\n", events.lines().toList());
      assertThat(rest).contains("data: [DONE]");
      assertThat(streaming.statusCode()).isEqualTo(200);
    }
  }

  @Test
  void aClientSlowToSendItsHeadersGets408AndIsCutOffOnHttp1() throws Exception {
    try (LocalGateway gw = plaintext(c -> c.withTimeouts(timeouts().withRequestHeadersMillis(50)));
        Socket s = new Socket("127.0.0.1", gw.port())) {
      s.setSoTimeout(20_000);
      s.getOutputStream()
          .write(
              "POST /v1/chat/completions HTTP/1.1\r\nhost: gw\r\n"
                  .getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();

      String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);

      assertThat(answer).startsWith("HTTP/1.1 408 ").contains("request_headers_timeout");
      assertThat(closed(gw, "request_headers_timeout")).isEqualTo(1);
    }
  }

  @Test
  void aClientSlowToSendItsFirstHeadersIsCutOffOnHttp2() throws Exception {
    try (LocalGateway gw = tls(c -> c.withTimeouts(timeouts().withRequestHeadersMillis(50)));
        RawH2 h2 = new RawH2(Stack.trusting(gw.certificatePem().orElseThrow()), gw.port())) {
      h2.preface();

      RawH2.Frame goaway = h2.await(RawH2.GOAWAY);

      assertThat(goaway).isNotNull();
      assertThat(h2.closedByServer()).isTrue();
      assertThat(closed(gw, "request_headers_timeout")).isEqualTo(1);
    }
  }

  @Test
  void anIdleHttp1ConnectionIsClosed() throws Exception {
    try (LocalGateway gw = plaintext(c -> c.withTimeouts(timeouts().withIdleConnectionMillis(50)));
        Socket s = new Socket("127.0.0.1", gw.port())) {
      s.setSoTimeout(20_000);

      assertThat(s.getInputStream().read()).isEqualTo(-1);
      assertThat(closed(gw, "idle")).isEqualTo(1);
    }
  }

  @Test
  void anIdleHttp2ConnectionGetsGoaway() throws Exception {
    try (LocalGateway gw = tls(c -> c.withTimeouts(timeouts().withIdleConnectionMillis(50)));
        RawH2 h2 = new RawH2(Stack.trusting(gw.certificatePem().orElseThrow()), gw.port())) {
      h2.preface();

      assertThat(h2.await(RawH2.GOAWAY)).isNotNull();
      assertThat(h2.closedByServer()).isTrue();
      assertThat(closed(gw, "idle")).isEqualTo(1);
    }
  }

  @Test
  void theDefaultLimitsAreAdvertised() throws Exception {
    try (LocalGateway gw = tls(c -> c);
        RawH2 h2 = new RawH2(Stack.trusting(gw.certificatePem().orElseThrow()), gw.port())) {
      h2.preface();

      assertThat(h2.serverSetting(0x3)).isEqualTo(1024); // SETTINGS_MAX_CONCURRENT_STREAMS
      assertThat(h2.serverSetting(0x6)).isEqualTo(64 << 10); // SETTINGS_MAX_HEADER_LIST_SIZE
    }
  }

  @Test
  void aStreamOverTheConcurrentLimitIsRefused() throws Exception {
    // the mechanism, at a small limit (the default's 1025th stream costs 1024 picker streams)
    int limit = 3;
    try (LocalGateway gw =
            tls(c -> c.withLimits(LimitSection.DEFAULTS.withMaxConcurrentStreams(limit)));
        RawH2 h2 = new RawH2(Stack.trusting(gw.certificatePem().orElseThrow()), gw.port())) {
      h2.preface();
      for (int i = 0; i <= limit; i++) {
        h2.openStream(1 + 2 * i); // each waits for its body: all stay open
      }

      RawH2.Frame reset = h2.await(RawH2.RST_STREAM);

      assertThat(reset).isNotNull();
      assertThat(reset.stream()).isEqualTo(1 + 2 * limit);
      assertThat(reset.errorCode()).isEqualTo(0x7); // REFUSED_STREAM
    }
  }

  @Test
  void theDefaultsAreEnvoys() {
    GatewayConfig c = GatewayConfig.parse("{}");

    assertThat(c.limits().maxConcurrentStreams()).isEqualTo(1024);
    assertThat(c.limits().maxHeaderBytes()).isEqualTo(64 << 10);
    assertThat(c.timeouts().requestHeadersMillis()).isEqualTo(10_000);
  }

  private static TimeoutSection timeouts() {
    return TimeoutSection.DEFAULTS;
  }

  private static double closed(LocalGateway gw, String reason) {
    Counter c =
        gw.metrics()
            .registry()
            .find("pointsman_gateway_connections_closed")
            .tag("reason", reason)
            .counter();
    return c == null ? 0 : c.count();
  }

  private LocalGateway plaintext(UnaryOperator<GatewayConfig> tweak) {
    return gateway("plaintext", tweak);
  }

  private LocalGateway tls(UnaryOperator<GatewayConfig> tweak) {
    return gateway(null, tweak);
  }

  private LocalGateway gateway(String tls, UnaryOperator<GatewayConfig> tweak) {
    return LocalGateway.start(
        tweak.apply(
            GatewayConfig.of(
                new ListenSection("127.0.0.1", 0, tls, null, null, null),
                PickerSection.plaintext(silentPicker.address()))));
  }
}
