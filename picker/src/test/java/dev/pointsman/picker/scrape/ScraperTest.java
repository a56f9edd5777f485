package dev.pointsman.picker.scrape;

import static dev.pointsman.picker.scrape.Recorder.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.picker.datastore.Datastore;
import dev.pointsman.picker.datastore.DatastoreConfig;
import dev.pointsman.picker.datastore.PoolDefinition;
import dev.pointsman.picker.scheduling.AdapterListing;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scheduling.InFlightTracker;
import java.net.ServerSocket;
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

  private final ScrapeHttp client = ScrapeHttp.create(Duration.ofSeconds(2));
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
    assertThatThrownBy(() -> ScraperConfig.DEFAULT.withModelsInterval(Duration.ofMillis(-1)))
        .hasMessage("scrape.modelsInterval: PT-0.001S (expected >= 0; 0 turns it off)");
    assertThatThrownBy(
            () ->
                new ScraperConfig(
                    Duration.ofMillis(50),
                    Duration.ofMillis(500),
                    1,
                    "/metrics",
                    Duration.ZERO,
                    "v1"))
        .hasMessage("scrape.modelsPath: 'v1' (expected an absolute path such as /v1/models)");
  }

  // --- model listings (/v1/models): the LoRA adapters registered on each endpoint

  @Test
  void listingIsCarriedWithEachScrape() throws Exception {
    server.serving(VLLM).listing(200, MetricsServer.modelList("sql-lora", "chat-lora"));
    manualScraper(config(250, 5000))
        .setTargets(List.of(new ScrapeTarget(server.address(), Engine.VLLM)));

    // an endpoint's first tick reads its listing too
    scraper.scrapeNow(server.address()).get(10, TimeUnit.SECONDS);
    assertThat(await(() -> recorder.listedCount("ok") == 1)).isTrue();
    scraper.scrapeNow(server.address()).get(10, TimeUnit.SECONDS);

    AdapterListing listing = recorder.last().metrics().listedAdapters();
    assertThat(listing.known()).isTrue();
    assertThat(listing.adapters()).containsExactlyInAnyOrder("sql-lora", "chat-lora");
    assertThat(listing.allows("sql-lora")).isTrue();
    assertThat(listing.allows("other-lora")).isFalse();
    assertThat(recorder.listedCount("ok")).isEqualTo(1);
  }

  @Test
  void listingIsReadEveryModelsIntervalNotEveryTick() throws Exception {
    server.serving(VLLM).listing(200, MetricsServer.modelList("a"));
    // 50 ms scrapes, listing every 200 ms: one read per 4 ticks
    manualScraper(config(50, 500).withModelsInterval(Duration.ofMillis(200)))
        .setTargets(List.of(new ScrapeTarget(server.address(), Engine.VLLM)));

    for (int i = 0; i < 8; i++) {
      manual.tickAll();
      int reads = i / 4 + 1; // ticks 0 and 4 read it
      assertThat(await(() -> recorder.listedCount("ok") == reads)).isTrue();
    }

    assertThat(server.listings()).isEqualTo(2);
  }

  @Test
  void listingsOffReadNothing() throws Exception {
    server.serving(VLLM).listing(200, MetricsServer.modelList("a"));
    manualScraper(config(50, 500).withModelsInterval(Duration.ZERO))
        .setTargets(List.of(new ScrapeTarget(server.address(), Engine.VLLM)));

    manual.tickAll();
    assertThat(await(() -> recorder.scraped.get() == 1)).isTrue();
    scraper.listNow(server.address()).get(10, TimeUnit.SECONDS);

    assertThat(server.listings()).isZero();
    assertThat(recorder.last().metrics().listedAdapters()).isEqualTo(AdapterListing.UNKNOWN);
  }

  @Test
  void failedListingIsCountedAndKeepsTheLastGoodOneUntilItExpires() throws Exception {
    server.serving(VLLM).listing(200, MetricsServer.modelList("a"));
    manualScraper(config(50, 500).withModelsInterval(Duration.ofMillis(1000)))
        .setTargets(List.of(new ScrapeTarget(server.address(), Engine.VLLM)));
    scraper.scrapeNow(server.address()).get(10, TimeUnit.SECONDS); // tick 0 also lists
    assertThat(await(() -> recorder.listedCount("ok") == 1)).isTrue();

    server.listing(404, "{\"detail\":\"Not Found\"}");
    scraper.listNow(server.address()).get(10, TimeUnit.SECONDS);
    server.listing(200, "<html>not a list</html>");
    scraper.listNow(server.address()).get(10, TimeUnit.SECONDS);
    server.listing(200, "{\"object\":\"list\",\"data\":[{\"object\":\"model\"}]}");
    scraper.listNow(server.address()).get(10, TimeUnit.SECONDS);
    scraper.scrapeNow(server.address()).get(10, TimeUnit.SECONDS); // tick 1 of 20: no listing

    assertThat(recorder.listedCount("http_404")).isEqualTo(1);
    assertThat(recorder.listedCount("parse")).isEqualTo(2);
    assertThat(recorder.last().metrics().listedAdapters().adapters()).containsExactly("a");

    // three read intervals (3 s) plus the timeout later, the last good listing no longer holds
    clock.addAndGet(Duration.ofMillis(3_501).toNanos());
    scraper.scrapeNow(server.address()).get(10, TimeUnit.SECONDS);
    assertThat(recorder.last().metrics().listedAdapters()).isEqualTo(AdapterListing.UNKNOWN);
  }

  @Test
  void listingOfAnEndpointWithoutAdaptersAllowsNone() throws Exception {
    server.serving(VLLM).listing(200, MetricsServer.modelList());
    manualScraper(config(250, 5000))
        .setTargets(List.of(new ScrapeTarget(server.address(), Engine.VLLM)));

    scraper.listNow(server.address()).get(10, TimeUnit.SECONDS);
    scraper.scrapeNow(server.address()).get(10, TimeUnit.SECONDS);
    assertThat(server.listings()).isGreaterThanOrEqualTo(1);

    AdapterListing listing = recorder.last().metrics().listedAdapters();
    assertThat(listing.known()).isTrue();
    assertThat(listing.allows("a")).isFalse();
  }

  // --- real engines' pages (src/test/resources/engine-captures)

  @Test
  void trtllmServeIsScrapedAtPrometheusMetricsByDefault() throws Exception {
    server
        .serving(Resources.capture("trtllm-serve-aibrix2004-metrics-json.txt"))
        .servingPrometheus(
            Resources.capture("trtllm-serve-aibrix2004-prometheus-metrics-excerpt.prom"));
    manualScraper(new ScraperConfig(Duration.ofMillis(250), Duration.ofMillis(5000), 8, null))
        .setTargets(List.of(new ScrapeTarget(server.address(), Engine.TRTLLM)));

    scraper.scrapeNow(server.address()).get(10, TimeUnit.SECONDS);

    assertThat(recorder.last().failure()).isNull();
    assertThat(recorder.scraped).hasValue(1);
  }

  @Test
  void aJsonMetricsPageIsANotPrometheusTextFailure() throws Exception {
    // trtllm-serve's /metrics: JSON iteration stats
    server.serving(Resources.capture("trtllm-serve-docs-metrics-endpoint-json.txt"));
    manualScraper(config(250, 5000))
        .setTargets(List.of(new ScrapeTarget(server.address(), Engine.TRTLLM)));

    scraper.scrapeNow(server.address()).get(10, TimeUnit.SECONDS);
    scraper.scrapeNow(server.address()).get(10, TimeUnit.SECONDS);

    assertThat(recorder.last().failure()).isEqualTo("not_prometheus_text");
    assertThat(recorder.failed.get("not_prometheus_text")).hasValue(2);
    assertThat(recorder.failed).doesNotContainKey("parse");
  }

  @Test
  void aSleepingVllmEngineIsNotServing() throws Exception {
    String page = Resources.capture("vllm-v1-2026-04-rh-workshop-head40.prom");
    String labels = "engine=\"0\",model_name=\"llama-vllm-single\"";
    // vLLM's sleep-state gauge after POST /sleep?level=1: one series per state
    server.serving(
        page
            + "vllm:engine_sleep_state{"
            + labels
            + ",sleep_state=\"awake\"} 0.0\n"
            + "vllm:engine_sleep_state{"
            + labels
            + ",sleep_state=\"weights_offloaded\"} 1.0\n"
            + "vllm:engine_sleep_state{"
            + labels
            + ",sleep_state=\"discard_all\"} 0.0\n");
    manualScraper(config(250, 5000))
        .setTargets(List.of(new ScrapeTarget(server.address(), Engine.VLLM)));

    scraper.scrapeNow(server.address()).get(10, TimeUnit.SECONDS);
    assertThat(recorder.last().failure()).isEqualTo("sleeping");

    server.serving(page + "vllm:engine_sleep_state{" + labels + ",sleep_state=\"awake\"} 1.0\n");
    scraper.scrapeNow(server.address()).get(10, TimeUnit.SECONDS);
    assertThat(recorder.last().failure()).isNull();
  }

  /**
   * vLLM's listing before its lineage fix (issue #6274), completed from the excerpt: the
   * author's {@code .....} elision removed and the cut second entry closed.
   */
  static String vllm2024Listing() {
    String t = Resources.capture("vllm-2024-07-issue6274-models-excerpt.json.txt");
    t = t.replace(".....", "").strip();
    return t.substring(0, t.length() - 1) + "}]}";
  }

  @Test
  void aVllmListingWithoutLineageRestrictsNoAdapter() throws Exception {
    server.serving(VLLM).listing(200, vllm2024Listing());
    manualScraper(config(250, 5000))
        .setTargets(List.of(new ScrapeTarget(server.address(), Engine.VLLM)));

    scraper.listNow(server.address()).get(10, TimeUnit.SECONDS);
    scraper.scrapeNow(server.address()).get(10, TimeUnit.SECONDS);

    assertThat(recorder.listedCount("no_lineage")).isPositive();
    assertThat(recorder.listedCount("ok")).isZero();
    AdapterListing listing = recorder.last().metrics().listedAdapters();
    assertThat(listing.allows("sql-lora")).isTrue();
    assertThat(listing.known()).isFalse();
  }

  @Test
  void anSglangListingOfOnlyTheBaseRestrictsNoAdapter() throws Exception {
    server.serving(Resources.metrics("sglang.txt")).listing(200, MetricsServer.modelList());
    manualScraper(config(250, 5000))
        .setTargets(List.of(new ScrapeTarget(server.address(), Engine.SGLANG)));

    scraper.listNow(server.address()).get(10, TimeUnit.SECONDS);
    scraper.scrapeNow(server.address()).get(10, TimeUnit.SECONDS);

    assertThat(recorder.listedCount("no_lineage")).isPositive();
    assertThat(recorder.listedCount("ok")).isZero();
    assertThat(recorder.last().metrics().listedAdapters().allows("sql_expert")).isTrue();
  }

  @Test
  void listingsWithLineageStillRestrict() throws Exception {
    server
        .serving(Resources.metrics("sglang.txt"))
        .listing(200, Resources.capture("sglang-pr12229-models-example.json"));
    other.serving(VLLM).listing(200, Resources.capture("vllm-0.7-v0-aibrix-models.json"));
    manualScraper(config(250, 5000))
        .setTargets(
            List.of(
                new ScrapeTarget(server.address(), Engine.SGLANG),
                new ScrapeTarget(other.address(), Engine.VLLM)));

    for (MetricsServer s : List.of(server, other)) {
      scraper.listNow(s.address()).get(10, TimeUnit.SECONDS);
      scraper.scrapeNow(s.address()).get(10, TimeUnit.SECONDS);
    }

    assertThat(recorder.listedCount("ok")).isGreaterThanOrEqualTo(2);
    assertThat(recorder.listedCount("no_lineage")).isZero();
    AdapterListing sglang = recorder.events.get(0).metrics().listedAdapters();
    AdapterListing vllm = recorder.last().metrics().listedAdapters();
    assertThat(sglang.adapters()).containsExactly("sql_expert");
    assertThat(vllm.adapters()).containsExactlyInAnyOrder("lora-1", "lora-2");
  }

  @Test
  void eachScrapeReportsWhatItLackedAndWhatItsListingWasWorth() throws Exception {
    Datastore store = new Datastore(DatastoreConfig.DEFAULT, new InFlightTracker(), clock::get);
    store.setPools(
        List.of(
            new PoolDefinition(
                "sg", Engine.SGLANG, List.of(new Endpoint(server.address(), "sg")))));
    server
        .serving(Resources.capture("sglang-0.4-docs-production-metrics.prom"))
        .listing(200, MetricsServer.modelList());
    scraper = new Scraper(config(250, 5000), client, manual, clock::get, store, recorder);
    scraper.setTargets(List.of(new ScrapeTarget(server.address(), Engine.SGLANG)));

    scraper.listNow(server.address()).get(10, TimeUnit.SECONDS);
    scraper.scrapeNow(server.address()).get(10, TimeUnit.SECONDS);

    ScrapeReport report = store.report(server.address());
    assertThat(report.missing()).containsExactly(Signal.KV_CAPACITY);
    assertThat(report.listing()).isEqualTo("no_lineage");
    assertThat(report.notServing()).isNull();
    assertThat(store.snapshot("sg").endpoints().getFirst().available()).isTrue();
    assertThat(store.snapshot("sg").endpoints().getFirst().metrics().runningRequests())
        .isEqualTo(162);
  }
}
