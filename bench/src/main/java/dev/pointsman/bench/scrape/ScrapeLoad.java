package dev.pointsman.bench.scrape;

import com.sun.management.OperatingSystemMXBean;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scrape.Engine;
import dev.pointsman.picker.scrape.ScrapeHttp;
import dev.pointsman.picker.scrape.ScrapeListener;
import dev.pointsman.picker.scrape.ScrapeObserver;
import dev.pointsman.picker.scrape.ScrapeTarget;
import dev.pointsman.picker.scrape.ScrapeTls;
import dev.pointsman.picker.scrape.Scraper;
import dev.pointsman.picker.scrape.ScraperConfig;
import dev.pointsman.runtime.SelfSigned;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Scrapes N loopback endpoints every interval for a while and reports the CPU the scraper used: the
 * process's CPU time minus that of the in-process exposition server's threads. Not a test: run it
 * by hand, one endpoint count per JVM.
 *
 * <pre>
 * java -cp bench/target/classes:$(cat bench/target/classpath.txt) \
 *   dev.pointsman.bench.scrape.ScrapeLoad [--tls] [--budget CORES] ENDPOINTS [SECONDS] [WARMUP_SECONDS] [BODY_FILE]
 * </pre>
 *
 * Listings ({@code /v1/models}) are off; the scraper's other settings are the defaults (50 ms, 500
 * ms timeout, 64 in flight, a budget of half a core; {@code --budget 0} turns the budget off). With
 * {@code --tls} the endpoints serve HTTPS (a self-signed certificate) and the scraper reads them
 * over TLS, trusting that certificate ({@code scrape.tls.caFile}).
 */
public final class ScrapeLoad {

  private static final String DEFAULT_BODY =
      "/work/shared/engine-captures/vllm-v1-2026-04-rh-workshop-head40.prom";

  private ScrapeLoad() {}

  public static void main(String[] argv) throws Exception {
    List<String> rest = new ArrayList<>(List.of(argv));
    boolean tls = rest.remove("--tls");
    int budgetAt = rest.indexOf("--budget");
    double budget = ScraperConfig.DEFAULT_CPU_BUDGET_CORES;
    if (budgetAt >= 0) {
      budget = Double.parseDouble(rest.get(budgetAt + 1));
      rest.subList(budgetAt, budgetAt + 2).clear();
    }
    String[] args = rest.toArray(String[]::new);
    int endpoints = Integer.parseInt(args[0]);
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
    int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 10;
    byte[] body = Files.readAllBytes(Path.of(args.length > 3 ? args[3] : DEFAULT_BODY));
    ScraperConfig config =
        ScraperConfig.DEFAULT
            .withModelsInterval(Duration.ZERO)
            .withCpuBudget(budget, ScraperConfig.DEFAULT.maxStretch());
    Counts counts = new Counts();
    Tls certificate = tls ? Tls.create() : null;
    try (ExpositionServer server =
            new ExpositionServer(
                java.util.Collections.nCopies(endpoints, body),
                1,
                certificate == null ? null : certificate.server());
        Client client = Client.create(config, counts, certificate)) {
      List<ScrapeTarget> targets = new ArrayList<>();
      for (int port : server.ports()) {
        targets.add(new ScrapeTarget("127.0.0.1:" + port, Engine.VLLM));
      }
      client.scraper().setTargets(targets);
      // the snapshots are taken on a timer: the warm-up's end, then the measured window's
      ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
      try {
        Snapshot before =
            timer.schedule(() -> Snapshot.take(server, counts), warmup, TimeUnit.SECONDS).get();
        Snapshot after =
            timer.schedule(() -> Snapshot.take(server, counts), seconds, TimeUnit.SECONDS).get();
        System.out.print(tls ? "https " : "http ");
        report(endpoints, body.length, config.interval(), before, after);
      } finally {
        timer.shutdownNow();
      }
    }
  }

  private static void report(
      int endpoints, int bodyBytes, Duration interval, Snapshot a, Snapshot b) {
    double wall = (b.wallNanos - a.wallNanos) / 1e9;
    long ok = b.ok - a.ok;
    double scraperCpu = (b.processCpu - a.processCpu) - (b.serverCpu - a.serverCpu);
    double wanted = endpoints * wall / (interval.toNanos() / 1e9);
    System.out.printf(
        Locale.ROOT,
        "endpoints=%d body=%dB window=%.1fs scrapes/s=%.0f (wanted %.0f, %.1f%%) failures=%d"
            + " skips=%d budget_skips=%d scraper_cores=%.3f cpu_per_scrape_us=%.1f server_cores=%.3f%n",
        endpoints,
        bodyBytes,
        wall,
        ok / wall,
        wanted / wall,
        100.0 * ok / wanted,
        b.failed - a.failed,
        b.skipped - a.skipped,
        b.budgetSkips - a.budgetSkips,
        scraperCpu / 1e9 / wall,
        ok == 0 ? Double.NaN : scraperCpu / 1e3 / ok,
        (b.serverCpu - a.serverCpu) / 1e9 / wall);
  }

  /** Scrape outcomes, counted. */
  static final class Counts implements ScrapeListener, ScrapeObserver {
    final LongAdder ok = new LongAdder();
    final LongAdder failed = new LongAdder();
    final LongAdder skipped = new LongAdder();
    final LongAdder budgetSkips = new LongAdder();
    final ConcurrentHashMap<String, LongAdder> reasons = new ConcurrentHashMap<>();

    @Override
    public void onSuccess(String address, EndpointMetrics metrics) {
      ok.increment();
    }

    @Override
    public void onFailure(String address, String reason) {
      failed.increment();
      reasons.computeIfAbsent(reason, r -> new LongAdder()).increment();
    }

    @Override
    public void skipped(String reason) {
      if (reason.equals("budget")) {
        budgetSkips.increment();
      } else {
        skipped.increment();
      }
    }
  }

  private record Snapshot(
      long wallNanos,
      long processCpu,
      long serverCpu,
      long ok,
      long failed,
      long skipped,
      long budgetSkips) {
    static Snapshot take(ExpositionServer server, Counts counts) {
      OperatingSystemMXBean os =
          (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      return new Snapshot(
          System.nanoTime(),
          os.getProcessCpuTime(),
          server.cpuNanos(),
          counts.ok.sum(),
          counts.failed.sum(),
          counts.skipped.sum(),
          counts.budgetSkips.sum());
    }
  }

  /** A self-signed certificate for the endpoints, written where the scraper's caFile reads it. */
  private record Tls(SelfSigned certificate, Path caFile) {
    static Tls create() throws java.io.IOException {
      SelfSigned c = SelfSigned.generate(List.of("localhost"));
      Path ca = Files.createTempFile("scrape-load-ca", ".pem");
      ca.toFile().deleteOnExit();
      Files.writeString(ca, c.certificatePem());
      return new Tls(c, ca);
    }

    SslContext server() throws javax.net.ssl.SSLException {
      return SslContextBuilder.forServer(certificate.privateKey(), certificate.certificate())
          .build();
    }

    ScrapeTls scrapeTls() {
      return new ScrapeTls(true, caFile.toString(), false);
    }
  }

  /** The scraper under test and what it owns. */
  private record Client(Scraper scraper, AutoCloseable resources) implements AutoCloseable {
    static Client create(ScraperConfig config, Counts counts, Tls tls) {
      ScrapeTls.Client trust = tls == null ? null : tls.scrapeTls().client();
      ScrapeHttp http =
          ScrapeHttp.create(Duration.ofSeconds(1), trust == null ? null : trust.context());
      Scraper scraper =
          new Scraper(config, http, http.executor(), System::nanoTime, counts, counts);
      return new Client(
          scraper,
          () -> {
            scraper.close();
            http.close();
            if (trust != null) {
              trust.close();
            }
          });
    }

    @Override
    public void close() throws Exception {
      resources.close();
    }
  }
}
