package dev.pointsman.picker.scrape;

import static dev.pointsman.picker.scrape.Recorder.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.picker.scrape.RawHttpServer.Mode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The scraper's HTTP client against a real loopback server: framing, reuse, failures. */
class ScrapeHttpTest {

  private static final String VLLM =
      "vllm:num_requests_waiting{model_name=\"m\"} 2\nvllm:num_requests_running 5\n"
          + "vllm:kv_cache_usage_perc 0.5\n";
  private static final long TIMEOUT = Duration.ofSeconds(5).toNanos();

  private final RawHttpServer server = new RawHttpServer();
  private final ScrapeHttp http = new ScrapeHttp(Duration.ofSeconds(2), 1, 4096);
  private final ManualPeriodicExecutor manual = new ManualPeriodicExecutor();
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final Recorder recorder = new Recorder();
  private Scraper scraper;

  @AfterEach
  void tearDown() {
    if (scraper != null) {
      scraper.close();
    }
    http.close();
    server.close();
    manual.shutdownNow();
  }

  private HttpConnection connection() {
    return http.connection("127.0.0.1", server.port(), "/metrics", "text/plain");
  }

  private static String text(HttpBody body) {
    return new String(body.bytes(), 0, body.length(), StandardCharsets.UTF_8);
  }

  private Scraper scraper(long timeoutMillis) {
    scraper =
        new Scraper(
            new ScraperConfig(
                    Duration.ofMillis(250), Duration.ofMillis(timeoutMillis), 8, "/metrics")
                .withModelsInterval(Duration.ZERO),
            http,
            manual,
            clock::get,
            recorder,
            recorder);
    scraper.setTargets(List.of(new ScrapeTarget(server.address(), Engine.VLLM)));
    return scraper;
  }

  private void scrapeOnce() throws Exception {
    scraper.scrapeNow(server.address()).get(10, TimeUnit.SECONDS);
  }

  @Test
  void keepAliveReusesOneConnectionAcrossScrapes() throws Exception {
    server.answering(Mode.CONTENT_LENGTH, "a 1\n");
    HttpConnection c = connection();

    for (int i = 0; i < 5; i++) {
      assertThat(text(c.get(TIMEOUT).get(10, TimeUnit.SECONDS))).isEqualTo("a 1\n");
    }

    assertThat(server.requests()).isEqualTo(5);
    assertThat(server.connections()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(
      value = Mode.class,
      names = {"CONTENT_LENGTH", "CHUNKED"})
  void contentLengthAndChunkedBodiesAreBothParsed(Mode mode) throws Exception {
    server.answering(mode, VLLM);
    scraper(5000);

    scrapeOnce();
    scrapeOnce();

    assertThat(recorder.last().failure()).isNull();
    assertThat(recorder.last().metrics().waitingRequests()).isEqualTo(2);
    assertThat(recorder.last().metrics().runningRequests()).isEqualTo(5);
    assertThat(recorder.last().metrics().kvCacheUsage()).isEqualTo(0.5);
    assertThat(recorder.scraped).hasValue(2);
    assertThat(server.connections()).isEqualTo(1);
  }

  @Test
  void reconnectsAfterTheServerClosesTheConnection() throws Exception {
    server.answering(Mode.CLOSE_AFTER_ANSWER, VLLM);
    scraper(5000);

    for (int i = 0; i < 3; i++) {
      scrapeOnce();
    }

    assertThat(recorder.scraped).hasValue(3);
    assertThat(recorder.failed).isEmpty();
    assertThat(server.connections()).isEqualTo(3);
    assertThat(server.requests()).isEqualTo(3);
  }

  @Test
  void aServerThatNeverAnswersTimesOutAndTheNextScrapeReconnects() throws Exception {
    server.answering(Mode.SILENT, VLLM);
    scraper(200);

    scrapeOnce();

    assertThat(recorder.last().failure()).isEqualTo("timeout");
    assertThat(recorder.failed.get("timeout")).hasValue(1);

    server.answering(Mode.CONTENT_LENGTH, VLLM);
    scrapeOnce();

    assertThat(recorder.last().failure()).isNull();
    assertThat(server.connections()).isEqualTo(2);
  }

  @ParameterizedTest
  @EnumSource(
      value = Mode.class,
      names = {"CONTENT_LENGTH", "CHUNKED"})
  void anOversizedBodyIsRejectedAndCounted(Mode mode) throws Exception {
    // the client reads at most 4,096 bytes
    server.answering(mode, VLLM + "x".repeat(5000) + " 1\n");
    scraper(5000);

    scrapeOnce();
    scrapeOnce();

    assertThat(recorder.last().failure()).isEqualTo("too_large");
    assertThat(recorder.failed.get("too_large")).hasValue(2);
    assertThat(recorder.scraped).hasValue(0);

    server.answering(mode, VLLM);
    scrapeOnce();
    assertThat(recorder.last().failure()).isNull();
  }

  @Test
  void anHttpErrorStatusIsCountedAndTheConnectionKept() throws Exception {
    server.answering(Mode.CONTENT_LENGTH, 503, "overloaded");
    scraper(5000);

    scrapeOnce();
    scrapeOnce();

    assertThat(recorder.last().failure()).isEqualTo("http_503");
    assertThat(recorder.failed.get("http_503")).hasValue(2);
    assertThat(server.connections()).isEqualTo(1);
  }

  @Test
  void aClosedConnectionFailsItsRequestAsCancelled() {
    server.answering(Mode.SILENT, VLLM);
    HttpConnection c = connection();

    var answer = c.get(TIMEOUT);
    assertThat(await(() -> server.requests() == 1)).isTrue();
    c.close();

    assertThatThrownBy(() -> answer.get(10, TimeUnit.SECONDS))
        .isInstanceOf(java.util.concurrent.CancellationException.class);
    var after = c.get(TIMEOUT);
    assertThat(await(after::isCompletedExceptionally)).isTrue();
  }

  @Test
  void aRefusedConnectionIsAConnectFailure() throws Exception {
    // a port bound by a socket that never listens: refused, and no other process can take it
    // meanwhile (a closed server's port could be taken by another test's listener)
    try (java.net.Socket holder = new java.net.Socket()) {
      holder.bind(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0));
      HttpConnection c =
          http.connection("127.0.0.1", holder.getLocalPort(), "/metrics", "text/plain");

      Throwable error = null;
      try {
        c.get(TIMEOUT).get(10, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        error = e.getCause();
      }

      assertThat(Failures.reason(error)).isEqualTo("connect");
    }
  }

  @Test
  void settingsAreValidated() {
    assertThatThrownBy(() -> new ScrapeHttp(Duration.ZERO, 1, 1))
        .hasMessage("scrape connect timeout: PT0S (expected 1ms..1m)");
    assertThatThrownBy(() -> new ScrapeHttp(Duration.ofSeconds(1), 0, 1))
        .hasMessage("scrape threads: 0 (expected 1..64)");
    assertThatThrownBy(() -> new ScrapeHttp(Duration.ofSeconds(1), 1, 0))
        .hasMessage("scrape max body bytes: 0 (expected >= 1)");
  }
}
