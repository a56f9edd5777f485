package dev.pointsman.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scrape.Engine;
import dev.pointsman.picker.scrape.MetricsLocation;
import dev.pointsman.picker.scrape.ScrapeHttp;
import dev.pointsman.picker.scrape.ScrapeListener;
import dev.pointsman.picker.scrape.ScrapeObserver;
import dev.pointsman.picker.scrape.ScrapeReport;
import dev.pointsman.picker.scrape.ScrapeTarget;
import dev.pointsman.picker.scrape.Scraper;
import dev.pointsman.picker.scrape.ScraperConfig;
import dev.pointsman.picker.scrape.Signal;
import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.server.EngineOptions;
import dev.pointsman.sim.server.Fleet;
import dev.pointsman.sim.server.FleetConfig;
import dev.pointsman.sim.server.PodConfig;
import dev.pointsman.testing.Await;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The picker's scraper reading, over real HTTP, what each simulated engine emits, at each engine's
 * default metrics path. The pods' GPU takes one sequence a step and its first step lasts hours, so
 * the load sent stays where it is: one request runs and the others wait, on every pod alike. The
 * capacity expected is the simulated pod's, from the simulator's profile.
 */
class EnginesIT {
  private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
  private static final int REQUESTS = 4;

  /** Simulated pods, in fleet order. */
  private enum Pod {
    VLLM("vllm", EngineOptions.NONE),
    VLLM_DP2("vllm", new EngineOptions(2, null, null, null, null)),
    VLLM_SLEEPER("vllm", EngineOptions.NONE),
    SGLANG_PRIORITIES("sglang", new EngineOptions(null, null, null, List.of(0, 10), null)),
    SGLANG_TP2("sglang", new EngineOptions(null, 2, true, null, null)),
    TRTLLM("trtllm", EngineOptions.NONE),
    TRTLLM_1_1("trtllm", new EngineOptions(null, null, null, null, "1.1")),
    TRITON("triton-tensorrt-llm", EngineOptions.NONE);

    final String engine;
    final EngineOptions options;

    Pod(String engine, EngineOptions options) {
      this.engine = engine;
      this.options = options;
    }

    /** The picker engine of the same config word. */
    Engine pickerEngine() {
      return Engine.fromConfigName(engine);
    }
  }

  /** A scrape result: metrics and report, or a failure reason. */
  private record Result(EndpointMetrics metrics, ScrapeReport report, String failure) {}

  @TempDir static Path dir;
  private static Fleet fleet;
  private static long capacity;
  private static Scraper scraper;
  private static final ScrapeHttp scrapeHttp = ScrapeHttp.create(Duration.ofSeconds(1));
  private static ScheduledExecutorService executor;
  private static final HttpClient http = HttpClient.newHttpClient();
  private static final Map<String, Result> results = new ConcurrentHashMap<>();
  private static final List<String> addresses = new ArrayList<>();

  @BeforeAll
  static void start() throws IOException {
    Path profiles = dir.resolve("profiles.yaml");
    // a GPU of crawling memory: its first step lasts hours, and it takes one sequence a step
    Files.writeString(
        profiles,
        """
        gpus:
          - {name: E2E, bf16Tflops: 1, memoryTBps: 0.000001, memoryGiB: 80, linkGBps: 0}
        profiles:
          - {gpu: E2E, model: llama-3-8b, maxBatchedTokens: 2048, maxNumSeqs: 1}
        """);
    GpuProfiles gpus = GpuProfiles.builtIn().withFile(profiles);
    capacity = gpus.get("E2E").kvTokens();
    List<PodConfig> pods = new ArrayList<>();
    for (Pod p : Pod.values()) {
      pods.add(PodConfig.of(p.name().toLowerCase(), "E2E").withEngine(p.engine, p.options));
    }
    fleet = Fleet.start(new FleetConfig(pods, 1L, null), gpus);
    fleet.urls().forEach(u -> addresses.add(u.substring("http://".length())));
    executor = Executors.newScheduledThreadPool(2);
    scraper =
        new Scraper(
            new ScraperConfig(Duration.ofMillis(20), Duration.ofMillis(400), 16, null)
                .withModelsInterval(Duration.ZERO),
            scrapeHttp,
            executor,
            System::nanoTime,
            new Recorder(),
            ScrapeObserver.NOOP);
    List<ScrapeTarget> targets = new ArrayList<>();
    for (Pod p : Pod.values()) {
      MetricsLocation where = MetricsLocation.DEFAULT;
      if (p == Pod.TRITON) {
        // real Triton serves metrics on port 8002; the simulated pod on its serving port
        where = new MetricsLocation(null, port(p));
      }
      targets.add(new ScrapeTarget(address(p), p.pickerEngine(), where));
    }
    scraper.setTargets(targets);
    for (Pod p : Pod.values()) {
      if (p != Pod.VLLM_SLEEPER) {
        for (int i = 0; i < REQUESTS; i++) {
          http.sendAsync(
              post(
                  p,
                  "/v1/completions",
                  "{\"model\": \""
                      + MODEL
                      + "\", \"prompt\": \"Say hi\","
                      + " \"max_tokens\": 32}"),
              HttpResponse.BodyHandlers.discarding());
        }
      }
    }
  }

  @AfterAll
  static void stop() {
    scraper.close();
    scrapeHttp.close();
    executor.shutdownNow();
    fleet.close();
  }

  @Test
  void requestCountsAreTheLoadSentOnceWhateverTheSeriesShape() {
    for (Pod p :
        List.of(
            Pod.VLLM,
            Pod.VLLM_DP2,
            Pod.SGLANG_PRIORITIES,
            Pod.SGLANG_TP2,
            Pod.TRTLLM,
            Pod.TRITON)) {
      EndpointMetrics m = awaitLoad(p);
      assertThat(m.runningRequests()).as(p + " running").isEqualTo(1);
      assertThat(m.waitingRequests()).as(p + " waiting").isEqualTo(REQUESTS - 1);
    }
  }

  @Test
  void kvCapacityIsThePodsAndUsageAgreesAcrossEngines() {
    double usage = awaitLoad(Pod.VLLM).kvCacheUsage();
    assertThat(usage).as("vllm usage with a request running").isPositive();
    for (Pod p :
        List.of(
            Pod.VLLM,
            Pod.VLLM_DP2,
            Pod.SGLANG_PRIORITIES,
            Pod.SGLANG_TP2,
            Pod.TRTLLM,
            Pod.TRITON)) {
      EndpointMetrics m = awaitLoad(p);
      // a data-parallel pod's two engines hold half the blocks each: their sum is the pod's
      assertThat(m.kvCapacityTokens()).as(p + " capacity").isEqualTo(capacity);
      assertThat(m.kvCacheUsage()).as(p + " usage").isEqualTo(usage);
    }
  }

  @Test
  void eachEngineReportsExactlyTheSignalsItLacks() {
    Map<Pod, Set<Signal>> lacking =
        Map.of(
            Pod.VLLM, Set.of(),
            Pod.VLLM_DP2, Set.of(),
            Pod.SGLANG_PRIORITIES, Set.of(),
            Pod.SGLANG_TP2, Set.of(),
            Pod.TRTLLM, Set.of(),
            Pod.TRTLLM_1_1, EnumSet.allOf(Signal.class),
            Pod.TRITON, Set.of(Signal.PREFIX_CACHE));
    lacking.forEach(
        (p, missing) -> {
          Result r = awaitSuccess(p);
          assertThat(r.report().missing()).as(p + " missing").isEqualTo(missing);
          assertThat(r.report().notServing()).as(p + " serving").isNull();
        });
  }

  @Test
  void trtllmServeIsReadAtItsPrometheusPathNotItsJsonMetrics() throws Exception {
    // the default location (/prometheus/metrics) succeeds above; /metrics answers JSON
    String address = address(Pod.TRTLLM);
    List<String> failures = new ArrayList<>();
    try (Scraper json =
        new Scraper(
            new ScraperConfig(Duration.ofMillis(20), Duration.ofMillis(400), 4, null)
                .withModelsInterval(Duration.ZERO),
            scrapeHttp,
            executor,
            System::nanoTime,
            new ScrapeListener() {
              @Override
              public void onSuccess(String a, EndpointMetrics metrics) {
                failures.add("success");
              }

              @Override
              public void onFailure(String a, String reason) {
                failures.add(reason);
              }
            },
            ScrapeObserver.NOOP)) {
      json.setTargets(
          List.of(new ScrapeTarget(address, Engine.TRTLLM, new MetricsLocation("/metrics", 0))));
      Await.until("a scrape of trtllm-serve's /metrics", () -> !failures.isEmpty());
    }
    assertThat(failures.get(0)).isEqualTo("not_prometheus_text");
    assertThat(awaitSuccess(Pod.TRTLLM).failure()).isNull();
  }

  @Test
  void aSleepingVllmPodDoesNotServeUntilWoken() throws Exception {
    assertThat(awaitSuccess(Pod.VLLM_SLEEPER).report().notServing()).isNull();

    assertThat(http.send(post(Pod.VLLM_SLEEPER, "/sleep?level=1", ""), body()).statusCode())
        .isEqualTo(200);
    Await.until(
        "the picker sees the pod asleep",
        () -> "sleeping".equals(notServing(results.get(address(Pod.VLLM_SLEEPER)))));

    assertThat(http.send(post(Pod.VLLM_SLEEPER, "/wake_up", ""), body()).statusCode())
        .isEqualTo(200);
    Await.until(
        "the picker sees the pod awake",
        () -> {
          Result r = results.get(address(Pod.VLLM_SLEEPER));
          return r.report() != null && r.report().notServing() == null;
        });
  }

  private static String notServing(Result r) {
    return r == null || r.report() == null ? null : r.report().notServing();
  }

  /** The pod's metrics once every request sent shows (as running or waiting). */
  private static EndpointMetrics awaitLoad(Pod p) {
    Await.until(
        p + " shows the load sent",
        () -> {
          Result r = results.get(address(p));
          return r != null
              && r.metrics() != null
              && r.metrics().runningRequests() + r.metrics().waitingRequests() >= REQUESTS;
        });
    return results.get(address(p)).metrics();
  }

  private static Result awaitSuccess(Pod p) {
    if (p != Pod.TRTLLM_1_1 && p != Pod.VLLM_SLEEPER) {
      awaitLoad(p);
    }
    Await.until(
        p + " scraped",
        () -> {
          Result r = results.get(address(p));
          return r != null && r.metrics() != null;
        });
    return results.get(address(p));
  }

  private static HttpResponse.BodyHandler<String> body() {
    return HttpResponse.BodyHandlers.ofString();
  }

  private static HttpRequest post(Pod p, String path, String json) {
    return HttpRequest.newBuilder(URI.create("http://" + address(p) + path))
        .header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json))
        .build();
  }

  private static String address(Pod p) {
    return addresses.get(p.ordinal());
  }

  private static int port(Pod p) {
    String a = address(p);
    return Integer.parseInt(a.substring(a.lastIndexOf(':') + 1));
  }

  /** Keeps each endpoint's latest result. */
  private static final class Recorder implements ScrapeListener {
    @Override
    public void onSuccess(String address, EndpointMetrics metrics, ScrapeReport report) {
      results.put(address, new Result(metrics, report, null));
    }

    @Override
    public void onSuccess(String address, EndpointMetrics metrics) {
      results.put(address, new Result(metrics, ScrapeReport.NONE, null));
    }

    @Override
    public void onFailure(String address, String reason) {
      results.put(address, new Result(null, null, reason));
    }
  }
}
