package dev.pointsman.picker.scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.runtime.PemFilesReloader;
import dev.pointsman.runtime.SelfSigned;
import dev.pointsman.testing.TestCa;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scraper against endpoints serving HTTPS over real sockets: a Netty HTTPS server with a
 * certificate from a throwaway CA, as vLLM started with {@code --ssl-certfile} would be.
 */
class ScrapeTlsTest {

  private static final String VLLM = MetricsHttpsServer.VLLM;

  @TempDir Path dir;

  private final List<AutoCloseable> closing = new ArrayList<>();
  private final ManualPeriodicExecutor manual = new ManualPeriodicExecutor();
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final Recorder recorder = new Recorder();

  @AfterEach
  void tearDown() throws Exception {
    for (AutoCloseable c : closing.reversed()) {
      c.close();
    }
    manual.shutdownNow();
  }

  private MetricsHttpsServer server(Path certChain, Path privateKey) throws Exception {
    MetricsHttpsServer s =
        new MetricsHttpsServer(
            SslContextBuilder.forServer(certChain.toFile(), privateKey.toFile()).build());
    closing.add(s);
    return s;
  }

  private MetricsHttpsServer server(TestCa.Issued issued) throws Exception {
    return server(issued.certChain(), issued.privateKey());
  }

  /** A scraper of {@code address} with these TLS settings, model listings every scrape. */
  private Scraper scraper(ScrapeTls tls, String address) {
    ScrapeTls.Client client = tls.enabled() ? tls.client() : null;
    if (client != null) {
      closing.add(client);
    }
    ScrapeHttp http =
        new ScrapeHttp(Duration.ofSeconds(2), 1, 4096, client == null ? null : client.context());
    closing.add(http);
    Scraper scraper =
        new Scraper(
            new ScraperConfig(Duration.ofMillis(250), Duration.ofMillis(5000), 8, "/metrics")
                .withModelsInterval(Duration.ofMillis(250)),
            http,
            manual,
            clock::get,
            recorder,
            recorder);
    closing.add(scraper);
    scraper.setTargets(List.of(new ScrapeTarget(address, Engine.VLLM)));
    return scraper;
  }

  private static void scrapeOnce(Scraper scraper, String address) throws Exception {
    scraper.scrapeNow(address).get(10, TimeUnit.SECONDS);
  }

  @Test
  void anHttpsEndpointIsScrapedAndListedOverOneConnectionPerPathTrustingItsCa() throws Exception {
    TestCa ca = TestCa.create(dir, "model-servers");
    MetricsHttpsServer server = server(ca.server("vllm-0"));
    Scraper scraper = scraper(new ScrapeTls(true, ca.caFile().toString(), null), server.address());

    for (int i = 0; i < 3; i++) {
      scrapeOnce(scraper, server.address());
    }

    assertThat(recorder.failed).isEmpty();
    assertThat(recorder.last().metrics().waitingRequests()).isEqualTo(2);
    assertThat(recorder.last().metrics().runningRequests()).isEqualTo(5);
    assertThat(server.requests("/metrics")).isEqualTo(3);
    assertThat(Recorder.await(() -> server.requests("/v1/models") >= 1)).isTrue();
    assertThat(Recorder.await(() -> recorder.listedCount("ok") >= 1)).isTrue();
    // one TLS connection for the metrics and one for the listing, each kept alive
    assertThat(server.connections).hasValue(2);
  }

  @Test
  void aCertificateFromAnotherCaFailsAsTlsAndNothingIsAsked() throws Exception {
    TestCa trusted = TestCa.create(dir, "trusted");
    TestCa other = TestCa.create(dir, "other");
    MetricsHttpsServer server = server(other.server("vllm-0"));
    Scraper scraper =
        scraper(new ScrapeTls(true, trusted.caFile().toString(), null), server.address());

    scrapeOnce(scraper, server.address());

    assertThat(recorder.last().failure()).isEqualTo("tls");
    assertThat(recorder.failed.get("tls")).hasValue(1);
    assertThat(server.requests("/metrics")).isZero();
  }

  @Test
  void theJvmsAuthoritiesDoNotTrustAPrivateCaByDefault() throws Exception {
    TestCa ca = TestCa.create(dir, "private");
    MetricsHttpsServer server = server(ca.server("vllm-0"));
    Scraper scraper = scraper(new ScrapeTls(true, null, null), server.address());

    scrapeOnce(scraper, server.address());

    assertThat(recorder.last().failure()).isEqualTo("tls");
    assertThat(server.requests("/metrics")).isZero();
  }

  @Test
  void theChainIsVerifiedNotTheName() throws Exception {
    // a self-signed certificate naming another host: trusted as its own CA, it is accepted
    SelfSigned cert = SelfSigned.generate(List.of("vllm-0.models.svc.cluster.local"));
    Path chain = Files.writeString(dir.resolve("cert.pem"), cert.certificatePem());
    Path key = Files.writeString(dir.resolve("key.pem"), cert.privateKeyPem());
    MetricsHttpsServer server = server(chain, key);
    Scraper scraper = scraper(new ScrapeTls(true, chain.toString(), null), server.address());

    scrapeOnce(scraper, server.address());

    assertThat(recorder.failed).isEmpty();
    assertThat(recorder.last().metrics().kvCacheUsage()).isEqualTo(0.5);
  }

  @Test
  void insecureSkipVerifyAcceptsACertificateNoOneTrusts() throws Exception {
    TestCa unknown = TestCa.create(dir, "unknown");
    MetricsHttpsServer server = server(unknown.server("vllm-0"));
    Scraper scraper = scraper(new ScrapeTls(true, null, true), server.address());

    scrapeOnce(scraper, server.address());

    assertThat(recorder.failed).isEmpty();
    assertThat(recorder.last().metrics().waitingRequests()).isEqualTo(2);
  }

  @Test
  void aRotatedCaIsTrustedFromTheNextConnection() throws Exception {
    TestCa before = TestCa.create(dir, "before");
    TestCa after = TestCa.create(dir, "after");
    MetricsHttpsServer server = server(after.server("vllm-0"));
    Path bundle = Files.copy(before.caFile(), dir.resolve("bundle.pem"));
    ScrapeTls.Client client = new ScrapeTls(true, bundle.toString(), null).client();
    closing.add(client);
    ScrapeHttp http = new ScrapeHttp(Duration.ofSeconds(2), 1, 4096, client.context());
    closing.add(http);
    HttpConnection connection =
        http.connection("127.0.0.1", portOf(server.address()), "/metrics", "text/plain");

    assertThatThrownBy(
            () -> connection.get(Duration.ofSeconds(5).toNanos()).get(10, TimeUnit.SECONDS))
        .satisfies(e -> assertThat(Failures.reason(e)).isEqualTo("tls"));
    Files.copy(after.caFile(), bundle, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    assertThat(client.trust().check()).isEqualTo(PemFilesReloader.Outcome.RELOADED);

    HttpBody body = connection.get(Duration.ofSeconds(5).toNanos()).get(10, TimeUnit.SECONDS);
    assertThat(new String(body.bytes(), 0, body.length(), StandardCharsets.UTF_8)).isEqualTo(VLLM);
  }

  @Test
  void aTlsScraperAgainstAPlainHttpEndpointFailsAsTls() throws Exception {
    MetricsHttpsServer plain = new MetricsHttpsServer(null);
    closing.add(plain);
    Scraper scraper = scraper(new ScrapeTls(true, null, true), plain.address());

    scrapeOnce(scraper, plain.address());

    // the server's 400 in plain text is not a TLS record
    assertThat(recorder.last().failure()).isEqualTo("tls");
    assertThat(plain.requests("/metrics")).isZero();
  }

  @Test
  void aPlainScraperAgainstAnHttpsEndpointFailsAndSaysSo() throws Exception {
    TestCa ca = TestCa.create(dir, "model-servers");
    MetricsHttpsServer server = server(ca.server("vllm-0"));
    Scraper scraper = scraper(ScrapeTls.OFF, server.address());

    scrapeOnce(scraper, server.address());

    assertThat(recorder.last().failure()).isIn("io", "parse", "timeout");
    assertThat(server.requests("/metrics")).isZero();
  }

  @Test
  void aFailedHandshakeIsWarnedOfOnceUntilAScrapeSucceeds() {
    Warnings w = new Warnings(new ScrapeTarget("10.0.0.1:8000", Engine.VLLM));
    java.net.URI uri = java.net.URI.create("https://10.0.0.1:8000/metrics");
    Exception e = new Exception(new javax.net.ssl.SSLHandshakeException("unknown ca"));

    assertThat(w.tls(uri, e)).isTrue();
    assertThat(w.tls(uri, e)).isFalse();
    w.tlsWorks();
    assertThat(w.tls(uri, e)).isTrue();
  }

  @Test
  void settingsThatCannotWorkAreRefusedWithTheirPath() throws Exception {
    assertThatThrownBy(() -> PickerConfig.parse("scrape: {tls: {caFile: /etc/ca.pem}}"))
        .hasMessageStartingWith("scrape.tls.caFile is set but enabled is false");
    assertThatThrownBy(
            () ->
                PickerConfig.parse(
                    "scrape: {tls: {enabled: true, caFile: /etc/ca.pem, insecureSkipVerify: true}}"))
        .hasMessageStartingWith("scrape.tls.insecureSkipVerify: true with a caFile");
    assertThatThrownBy(() -> PickerConfig.parse("scrape: {tls: {enabled: true, cafile: x}}"))
        .hasMessageContaining("scrape.tls.cafile: unknown property");
    assertThat(PickerConfig.parse("scrape: {tls: {enabled: true}}").scrape().tls().enabled())
        .isTrue();
    assertThat(PickerConfig.parse("scrape: {}").scrape().tls()).isEqualTo(ScrapeTls.OFF);

    assertThatThrownBy(
            () -> new ScrapeTls(true, dir.resolve("absent.pem").toString(), null).client())
        .hasMessageStartingWith("scrape.tls.caFile: ")
        .hasMessageContaining("does not exist");
    Path garbage = Files.writeString(dir.resolve("garbage.pem"), "not a certificate\n");
    assertThatThrownBy(() -> new ScrapeTls(true, garbage.toString(), null).client())
        .hasMessageStartingWith("scrape.tls.caFile: unusable certificate");
    assertThatThrownBy(() -> ScrapeTls.OFF.client()).isInstanceOf(IllegalStateException.class);
    SelfSigned x = SelfSigned.generate(List.of("x"));
    SslContext server =
        SslContextBuilder.forServer(
                new ByteArrayInputStream(x.certificatePem().getBytes(StandardCharsets.US_ASCII)),
                new ByteArrayInputStream(x.privateKeyPem().getBytes(StandardCharsets.US_ASCII)))
            .build();
    assertThatThrownBy(() -> new ScrapeHttp(Duration.ofSeconds(1), 1, 1, server))
        .hasMessageContaining("a server context");
  }

  private static int portOf(String address) {
    return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
  }
}
