package dev.pointsman.picker.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.picker.scrape.MetricsHttpsServer;
import dev.pointsman.testing.Await;
import dev.pointsman.testing.TestCa;
import io.netty.handler.ssl.SslContextBuilder;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The picker with {@code scrape.tls}: a pool whose endpoint serves HTTPS is scraped and becomes
 * ready with the CA configured, and is not without it.
 */
class ModelServerTlsAppTest {
  @TempDir Path dir;

  private PickerApp app;
  private MetricsHttpsServer server;

  @AfterEach
  void tearDown() {
    if (app != null) {
      app.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private void serve() throws Exception {
    TestCa.Issued cert = TestCa.create(dir, "model-servers").server("vllm-0");
    server =
        new MetricsHttpsServer(
            SslContextBuilder.forServer(cert.certChain().toFile(), cert.privateKey().toFile())
                .build());
  }

  private PickerApp start(String scrape) {
    return new PickerApp(
            PickerConfig.parse(
                "grpc: {port: 0, host: 127.0.0.1}\nadmin: {port: 0, host: 127.0.0.1}\n"
                    + scrape
                    + "\npools:\n  - name: gpu-a\n    engine: vllm\n    models: [m]\n"
                    + "    endpoints: [{address: \""
                    + server.address()
                    + "\"}]\n"),
            null)
        .start();
  }

  @Test
  void anHttpsPoolIsScrapedAndReadyWithItsCa() throws Exception {
    serve();
    Path ca = dir.resolve("ca-model-servers.pem");
    app = start("scrape: {tls: {enabled: true, caFile: \"" + ca + "\"}}");

    // ready means every endpoint had a result, which on a loaded machine can be a first
    // handshake that timed out: wait for the scrape that succeeds
    Await.until("the endpoint is scraped", () -> app.datastore().available("gpu-a") == 1);
    assertThat(app.ready()).isTrue();
    assertThat(server.requests("/metrics")).isPositive();
    assertThat(app.datastore().failing(server.address())).isNull();
  }

  @Test
  void withoutTlsTheSameEndpointNeverBecomesAvailable() throws Exception {
    serve();
    app = start("scrape: {intervalMillis: 50}");

    // the scrapes fail; let several of them run before looking
    Await.until("three connections tried", () -> server.connections.get() >= 3);
    assertThat(app.datastore().available("gpu-a")).isZero();
    assertThat(server.requests("/metrics")).isZero();
    // /debug/endpoints says why: the server closes on a request that is not TLS
    assertThat(app.datastore().failing(server.address()).reason()).isEqualTo("io");
  }

  @Test
  void aMissingCaFileStopsTheStartWithItsPath() throws Exception {
    serve();
    String absent = dir.resolve("absent.pem").toString();

    assertThatThrownBy(() -> start("scrape: {tls: {enabled: true, caFile: \"" + absent + "\"}}"))
        .hasMessage("scrape.tls.caFile: " + absent + " does not exist (expected a PEM file)");
  }
}
