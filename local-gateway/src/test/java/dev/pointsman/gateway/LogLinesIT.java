package dev.pointsman.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.gateway.app.LocalGateway;
import dev.pointsman.gateway.config.GatewayConfig;
import dev.pointsman.gateway.config.ListenSection;
import dev.pointsman.gateway.config.PickerSection;
import dev.pointsman.testing.Await;
import io.micrometer.core.instrument.Counter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the gateway logs (slf4j-simple writes to stderr, captured here): a client that goes away or
 * fails TLS is no WARN and no stack trace; a picker the gateway cannot use is one WARN line that
 * says what failed and what to check, once for many failures.
 */
class LogLinesIT {
  private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
  private PrintStream original;

  @BeforeEach
  void capture() {
    original = System.err;
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restore() {
    System.setErr(original);
    original.print(log());
  }

  @Test
  void aClientResettingItsHttp2ConnectionIsNoWarning() throws Exception {
    AtomicBoolean started = new AtomicBoolean();
    try (FakePicker silent = new FakePicker((req, out) -> started.set(true));
        LocalGateway gw = tls(PickerSection.plaintext(silent.address()))) {
      RawH2 h2 = new RawH2(Stack.trusting(gw.certificatePem().orElseThrow()), gw.port());
      h2.preface();
      h2.openStream(1);
      Await.until("the request reached the picker", started::get);
      h2.reset();

      Await.until("the gateway saw the reset", () -> gw.metrics().requests(499) == 1);
      Await.until("the connection error was handled", () -> clientErrors(gw) >= 1);
      assertThat(log()).doesNotContain(" WARN ").doesNotContain("\tat ");
    }
  }

  @Test
  void aClientFailingTheTlsHandshakeIsNoWarning() throws Exception {
    try (FakePicker silent = new FakePicker((req, out) -> {});
        LocalGateway gw = tls(PickerSection.plaintext(silent.address()));
        SSLSocket s =
            (SSLSocket)
                SSLContext.getDefault().getSocketFactory().createSocket("127.0.0.1", gw.port())) {
      // the JDK trust store does not trust the gateway's self-signed certificate
      assertThatThrownBy(s::startHandshake).isInstanceOf(javax.net.ssl.SSLException.class);

      Await.until("the gateway counted the failed handshake", () -> clientErrors(gw) >= 1);
      assertThat(log()).doesNotContain(" WARN ").doesNotContain("\tat ");
    }
  }

  @Test
  void anUntrustedPickerCertificateIsOneWarnLineSayingWhatToSet() throws Exception {
    // another gateway's TLS listener stands in for a picker whose certificate is not trusted
    try (FakePicker silent = new FakePicker((req, out) -> {});
        LocalGateway stranger = tls(PickerSection.plaintext(silent.address()));
        LocalGateway gw =
            plaintext(new PickerSection("127.0.0.1:" + stranger.port(), "tls", null, null, null))) {
      for (int i = 0; i < 3; i++) {
        assertThat(post(gw).statusCode()).isEqualTo(503);
      }

      List<String> warnings = warnings();
      assertThat(warnings).hasSize(1);
      assertThat(warnings.getFirst())
          .contains("cannot use the endpoint picker at 127.0.0.1:" + stranger.port())
          .contains("not trusted")
          .contains("picker.caFile");
      assertThat(log()).doesNotContain("\tat ");
    }
  }

  @Test
  void aRefusedPickerConnectionIsOneWarnLine() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    try (LocalGateway gw = plaintext(PickerSection.plaintext("127.0.0.1:" + port))) {
      assertThat(post(gw).statusCode()).isEqualTo(503);
      assertThat(post(gw).statusCode()).isEqualTo(503);

      assertThat(warnings()).singleElement().asString().contains("connection refused");
    }
  }

  private List<String> warnings() {
    return log().lines().filter(l -> l.contains(" WARN ")).toList();
  }

  private String log() {
    return captured.toString(StandardCharsets.UTF_8);
  }

  private static double clientErrors(LocalGateway gw) {
    return gw.metrics().registry().find("pointsman_gateway_client_errors").counters().stream()
        .mapToDouble(Counter::count)
        .sum();
  }

  private static HttpResponse<String> post(LocalGateway gw) throws Exception {
    HttpRequest req =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gw.port() + "/v1/chat/completions"))
            .timeout(Duration.ofSeconds(20))
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(Stack.chat(Stack.MODEL, "hi", false, 2)))
            .build();
    return HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofString());
  }

  private static LocalGateway plaintext(PickerSection picker) {
    return LocalGateway.start(
        GatewayConfig.of(new ListenSection("127.0.0.1", 0, "plaintext", null, null, null), picker));
  }

  private static LocalGateway tls(PickerSection picker) {
    return LocalGateway.start(
        GatewayConfig.of(new ListenSection("127.0.0.1", 0, null, null, null, null), picker));
  }
}
