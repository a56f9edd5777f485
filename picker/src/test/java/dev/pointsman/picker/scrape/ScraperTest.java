package dev.pointsman.picker.scrape;

import static dev.pointsman.picker.scrape.Recorder.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ScraperTest {

  private static final String VLLM =
      "vllm:num_requests_waiting{model_name=\"m\"} 2\nvllm:num_requests_running 5\n"
          + "vllm:kv_cache_usage_perc 0.5\n";

  private final HttpClient client = Scraper.newHttpClient(Duration.ofSeconds(2));
  private final ManualPeriodicExecutor manual = new ManualPeriodicExecutor();
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final Recorder recorder = new Recorder();
  private final MetricsServer server = new MetricsServer();
  private final MetricsServer other = new MetricsServer();
  private Scraper scraper;

  @AfterEach
  void tearDown() {
    if (scraper != null) {
      scraper.close();
    }
    server.close();
    other.close();
    manual.shutdownNow();
    client.close();
  }

  private Scraper manualScraper(ScraperConfig config) {
    scraper = new Scraper(config, client, manual, clock::get, recorder, recorder);
    return scraper;
  }

  private static ScraperConfig config(long intervalMillis, long timeoutMillis) {
    return new ScraperConfig(
        Duration.ofMillis(intervalMillis), Duration.ofMillis(timeoutMillis), 8, "/metrics");
  }

  @Test
  void successReportsMappedMetrics() throws Exception {
    server.serving(VLLM);
    manualScraper(config(250, 5000))
        .setTargets(List.of(new ScrapeTarget(server.address(), Engine.VLLM)));

    scraper.scrapeNow(server.address()).get(10, TimeUnit.SECONDS);

    Recorder.Event event = recorder.last();
    assertThat(event.failure()).isNull();
    assertThat(event.address()).isEqualTo(server.address());
    assertThat(event.metrics().waitingRequests()).isEqualTo(2);
    assertThat(event.metrics().runningRequests()).isEqualTo(5);
    assertThat(event.metrics().scrapedAtNanos()).isEqualTo(clock.get());
    assertThat(recorder.scraped).hasValue(1);
  }

  @Test
  void serverErrorIsAnHttpFailure() throws Exception {
    server.serving(VLLM).failingWith(500);
    manualScraper(config(250, 5000))
        .setTargets(List.of(new ScrapeTarget(server.address(), Engine.VLLM)));

    scraper.scrapeNow(server.address()).get(10, TimeUnit.SECONDS);

    assertThat(recorder.last().failure()).isEqualTo("http_500");
    assertThat(recorder.failed.get("http_500")).hasValue(1);
  }

  @Test
  void unusableBodyIsAParseFailure() throws Exception {
    server.serving("<html>hello</html>\n");
    manualScraper(config(250, 5000))
        .setTargets(List.of(new ScrapeTarget(server.address(), Engine.VLLM)));

    scraper.scrapeNow(server.address()).get(10, TimeUnit.SECONDS);

    assertThat(recorder.last().failure()).isEqualTo("parse");
  }

  @Test
  void refusedConnectionIsAConnectFailure() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    String address = "127.0.0.1:" + port;
    manualScraper(config(250, 5000)).setTargets(List.of(new ScrapeTarget(address, Engine.VLLM)));

    scraper.scrapeNow(address).get(10, TimeUnit.SECONDS);

    assertThat(recorder.last().failure()).isEqualTo("connect");
  }

  @Test
  void slowServerTimesOut() throws Exception {
    server.serving(VLLM).stalling();
    manualScraper(config(50, 200))
        .setTargets(List.of(new ScrapeTarget(server.address(), Engine.VLLM)));

    scraper.scrapeNow(server.address()).get(10, TimeUnit.SECONDS);

    assertThat(recorder.last().failure()).isEqualTo("timeout");
  }

  @Test
  void slowEndpointNeverHasMoreThanOneScrapeInFlight() throws Exception {
    server.serving(VLLM).stalling();
    manualScraper(config(250, 5000))
        .setTargets(List.of(new ScrapeTarget(server.address(), Engine.VLLM)));

    var first = scraper.scrapeNow(server.address());
    for (int i = 0; i < 5; i++) {
      manual.tickAll();
    }
    assertThat(await(() -> server.requests() == 1)).isTrue();
    assertThat(recorder.skipCount("in_flight")).isEqualTo(5);

    server.release();
    first.get(10, TimeUnit.SECONDS);
    manual.tickAll();

    assertThat(await(() -> recorder.successes(server.address()) == 2)).isTrue();
    assertThat(server.requests()).isEqualTo(2);
    assertThat(server.maxInFlight()).isEqualTo(1);
  }

  @Test
  void globalConcurrencyLimitSkipsTicks() throws Exception {
    server.stalling().serving(VLLM);
    other.serving(VLLM);
    ScraperConfig one = config(250, 5000).withMaxConcurrent(1);
    manualScraper(one);
    scraper.setTargets(
        List.of(
            new ScrapeTarget(server.address(), Engine.VLLM),
            new ScrapeTarget(other.address(), Engine.VLLM)));

    var first = scraper.scrapeNow(server.address());
    scraper.scrapeNow(other.address()).get(10, TimeUnit.SECONDS);

    assertThat(recorder.skipCount("concurrency")).isEqualTo(1);
    assertThat(other.requests()).isZero();
    server.release();
    first.get(10, TimeUnit.SECONDS);
  }

  @Test
  void changingTargetsStopsRemovedOnesAndStartsNewOnes() throws Exception {
    server.serving(VLLM);
    other.serving(VLLM);
    manualScraper(config(250, 5000))
        .setTargets(List.of(new ScrapeTarget(server.address(), Engine.VLLM)));

    scraper.setTargets(List.of(new ScrapeTarget(other.address(), Engine.VLLM)));
    scraper.scrapeNow(server.address()).get(10, TimeUnit.SECONDS);
    scraper.scrapeNow(other.address()).get(10, TimeUnit.SECONDS);

    assertThat(scraper.targets()).containsExactly(new ScrapeTarget(other.address(), Engine.VLLM));
    assertThat(manual.activePeriodic()).isEqualTo(1);
    assertThat(server.requests()).isZero();
    assertThat(recorder.successes(other.address())).isEqualTo(1);
  }

  @Test
  void removedTargetInFlightIsNotReported() throws Exception {
    server.serving(VLLM).stalling();
    manualScraper(config(250, 5000))
        .setTargets(List.of(new ScrapeTarget(server.address(), Engine.VLLM)));
    var inFlight = scraper.scrapeNow(server.address());
    assertThat(await(() -> server.requests() == 1)).isTrue();

    scraper.setTargets(List.of());
    inFlight.get(10, TimeUnit.SECONDS);

    assertThat(recorder.events).isEmpty();
  }

  @Test
  void engineChangeRestartsTheTarget() {
    manualScraper(config(250, 5000))
        .setTargets(List.of(new ScrapeTarget(server.address(), Engine.VLLM)));

    scraper.setTargets(List.of(new ScrapeTarget(server.address(), Engine.SGLANG)));

    assertThat(scraper.targets())
        .containsExactly(new ScrapeTarget(server.address(), Engine.SGLANG));
    assertThat(manual.activePeriodic()).isEqualTo(1);
  }

  @Test
  void phasesAreStableAndSpreadWithinTheInterval() {
    long interval = Duration.ofMillis(50).toNanos();
    manualScraper(config(50, 500));
    scraper.setTargets(
        List.of(
            new ScrapeTarget(server.address(), Engine.VLLM),
            new ScrapeTarget(other.address(), Engine.VLLM)));

    assertThat(manual.initialDelays.values())
        .allSatisfy(d -> assertThat(d).isBetween(0L, interval - 1));
    assertThat(Scraper.phase("10.0.0.1:8000", interval))
        .isEqualTo(Scraper.phase("10.0.0.1:8000", interval));
    long distinct =
        java.util.stream.IntStream.range(0, 100)
            .mapToLong(i -> Scraper.phase("10.0.0." + i + ":8000", interval) / (interval / 10))
            .distinct()
            .count();
    assertThat(distinct).isEqualTo(10);
  }

  @Test
  void scrapesPeriodicallyOnARealExecutorAndFollowsTargetChanges() {
    server.serving(VLLM);
    other.serving(VLLM);
    ScheduledThreadPoolExecutor real = new ScheduledThreadPoolExecutor(1);
    try {
      scraper = new Scraper(config(20, 400), client, real, System::nanoTime, recorder, recorder);
      scraper.setTargets(List.of(new ScrapeTarget(server.address(), Engine.VLLM)));
      assertThat(await(() -> recorder.successes(server.address()) >= 5)).isTrue();

      scraper.setTargets(List.of(new ScrapeTarget(other.address(), Engine.VLLM)));
      int atChange = server.requests();
      assertThat(await(() -> recorder.successes(other.address()) >= 5)).isTrue();

      assertThat(server.requests()).isLessThanOrEqualTo(atChange + 1);
      assertThat(server.maxInFlight()).isEqualTo(1);
    } finally {
      scraper.close();
      real.shutdownNow();
    }
  }

  @Test
  void closeStopsEverything() {
    manualScraper(config(250, 5000))
        .setTargets(List.of(new ScrapeTarget(server.address(), Engine.VLLM)));

    scraper.close();

    assertThat(scraper.targets()).isEmpty();
    assertThat(manual.activePeriodic()).isZero();
    assertThatThrownBy(() -> scraper.setTargets(Set.of()))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void duplicateAddressesAreRejected() {
    manualScraper(config(250, 5000));
    ScrapeTarget a = new ScrapeTarget(server.address(), Engine.VLLM);

    assertThatThrownBy(
            () -> scraper.setTargets(List.of(a, new ScrapeTarget(server.address(), Engine.SGLANG))))
        .hasMessageContaining("duplicate address '" + server.address() + "'");
  }

  @Test
  void configValidationNamesTheBadValue() {
    assertThatThrownBy(() -> config(50, 2000))
        .hasMessage("scrape.timeout: PT2S (expected > 0 and <= 20 intervals = PT1S)");
    assertThatThrownBy(() -> config(0, 10)).hasMessage("scrape.interval: PT0S (expected >= 1ms)");
    assertThatThrownBy(() -> ScraperConfig.DEFAULT.withMaxConcurrent(0))
        .hasMessage("scrape.maxConcurrent: 0 (expected >= 1)");
    assertThatThrownBy(() -> new ScrapeTarget("nohost", Engine.VLLM))
        .hasMessage("scrape address: 'nohost' (expected host:port)");
  }
}
