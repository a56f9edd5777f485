package dev.pointsman.bench.routing.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.bench.routing.policy.FleetView;
import dev.pointsman.bench.routing.policy.Route;
import dev.pointsman.bench.routing.policy.RoutingPolicy;
import dev.pointsman.bench.routing.scenario.ScrapeSpec;
import dev.pointsman.bench.routing.workload.BenchRequest;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.sim.engine.EngineConfig;
import dev.pointsman.sim.engine.EngineListener;
import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.engine.Segment;
import dev.pointsman.sim.engine.SimRequest;
import dev.pointsman.sim.engine.VirtualCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ScrapeFeedTest {
  private final EngineConfig l4 = EngineConfig.of("p0", "base", GpuProfiles.builtIn().get("L4"));
  private final VirtualCluster cluster = new VirtualCluster(List.of(l4), EngineListener.NONE);
  private final FleetView fleet = new FleetView(List.of(l4), "base", cluster);
  private final List<Double> scrapedAt = new ArrayList<>();
  private final RoutingPolicy policy =
      new RoutingPolicy() {
        @Override
        public String name() {
          return "probe";
        }

        @Override
        public Route route(BenchRequest request) {
          throw new UnsupportedOperationException();
        }

        @Override
        public void onScrape(int pod) {
          scrapedAt.add(fleet.nowMs());
        }
      };

  /** Lag exactly {@code lagMs} (sigma 0), no phase jitter. */
  private ScrapeFeed feed(double lagMs, double failureRate) {
    ScrapeSpec spec = new ScrapeSpec(50.0, 0.0, lagMs, 0.0, failureRate, 500.0);
    return new ScrapeFeed(spec, 1, new SplittableRandom(1), new SplittableRandom(2));
  }

  /** Runs the feed's events up to and including {@code untilMs}. */
  private void runTo(ScrapeFeed feed, double untilMs) {
    while (feed.nextEventMs() <= untilMs) {
      cluster.runUntil(feed.nextEventMs());
      feed.fire(cluster, fleet, policy);
    }
    cluster.runUntil(untilMs);
  }

  private void busy() {
    cluster.submit(new SimRequest(1, 10, List.of(new Segment(1, 900)), 400, "", 99), 0);
  }

  @Test
  void aLateScrapeDeliversThePodAsItWasAtItsTick() {
    ScrapeFeed feed = feed(20, 0);
    busy(); // arrives at 10 ms, after the tick at 0

    runTo(feed, 19);
    assertThat(fleet.metrics(0)).isEqualTo(EndpointMetrics.UNKNOWN);
    runTo(feed, 20);
    assertThat(fleet.metrics(0).runningRequests()).isZero(); // as at 0 ms, though it runs now
    assertThat(cluster.snapshot(0).running()).isEqualTo(1);
    assertThat(fleet.metrics(0).scrapedAtNanos()).isZero();

    runTo(feed, 69);
    assertThat(fleet.metrics(0).runningRequests()).isZero();
    runTo(feed, 70);
    assertThat(fleet.metrics(0).runningRequests()).isEqualTo(1);
    assertThat(fleet.metrics(0).scrapedAtNanos()).isEqualTo(50_000_000L);
    assertThat(scrapedAt).containsExactly(20.0, 70.0);
  }

  @Test
  void withoutLagEachScrapeIsAppliedAtItsTick() {
    ScrapeFeed feed = feed(0, 0);
    busy();
    runTo(feed, 100);

    assertThat(scrapedAt).containsExactly(0.0, 50.0, 100.0);
    assertThat(fleet.metrics(0).runningRequests()).isEqualTo(1);
  }

  @Test
  void aTickWhileTheLastScrapeIsInFlightIsSkipped() {
    ScrapeFeed feed = feed(80, 0); // ticks at 0, 50, 100, 150, 200: 50 and 150 find one in flight
    runTo(feed, 200);

    assertThat(scrapedAt).containsExactly(80.0, 180.0);
    assertThat(feed.skipped()).isEqualTo(2);
  }

  @Test
  void aScrapeSlowerThanTheTimeoutFailsAtTheTimeout() {
    ScrapeSpec spec = new ScrapeSpec(50.0, 0.0, 600.0, 0.0, 0.0, 500.0);
    ScrapeFeed feed = new ScrapeFeed(spec, 1, new SplittableRandom(1), new SplittableRandom(2));
    runTo(feed, 499);
    assertThat(feed.failed()).isZero();
    runTo(feed, 500);

    assertThat(feed.failed()).isEqualTo(1);
    assertThat(scrapedAt).isEmpty();
  }

  @Test
  void failedScrapesKeepTheLastViewAndThenMakeThePodUnavailable() {
    busy();
    cluster.runUntil(40);
    fleet.applyScrape(0, cluster.snapshot(0));
    EndpointMetrics before = fleet.metrics(0);
    ScrapeFeed feed = feed(0, 1.0); // every scrape fails

    runTo(feed, 50); // two failures, at the ticks of 0 and 50 ms
    assertThat(fleet.metrics(0)).isSameAs(before);
    assertThat(fleet.available(0)).isTrue();
    runTo(feed, 100); // the third consecutive failure
    assertThat(feed.failed()).isEqualTo(3);
    assertThat(fleet.metrics(0)).isSameAs(before);
    assertThat(fleet.available(0)).isFalse();
    assertThat(fleet.pool().endpoints().get(0).available()).isFalse();

    fleet.applyScrape(0, cluster.snapshot(0));
    assertThat(fleet.pool().endpoints().get(0).available()).isTrue();
  }

  @Test
  void aPodWithoutASuccessfulScrapeForASecondIsUnavailable() {
    fleet.applyScrape(0, cluster.snapshot(0));
    cluster.runUntil(1000);
    assertThat(fleet.available(0)).isTrue();
    cluster.runUntil(1000.5);
    assertThat(fleet.available(0)).isFalse();
  }

  @Test
  void lagsFollowTheStatedLogNormal() {
    ScrapeSpec spec = new ScrapeSpec(50.0, 0.0, 5.0, 1.0, 0.0, 500.0);
    ScrapeFeed feed = new ScrapeFeed(spec, 1, new SplittableRandom(1), new SplittableRandom(3));
    List<Double> lags = new ArrayList<>();
    RoutingPolicy recorder =
        new RoutingPolicy() {
          @Override
          public String name() {
            return "lag";
          }

          @Override
          public Route route(BenchRequest request) {
            throw new UnsupportedOperationException();
          }

          @Override
          public void onScrape(int pod) {
            lags.add(fleet.nowMs() - fleet.metrics(0).scrapedAtNanos() / 1e6);
          }
        };
    while (feed.nextEventMs() <= 200_000) {
      cluster.runUntil(feed.nextEventMs());
      feed.fire(cluster, fleet, recorder);
    }

    double[] sorted = lags.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    // 4,001 ticks, about 1% skipped behind a lag over 50 ms: p50 = 5 ms, p90 = 5 e^1.28 = 18 ms
    assertThat(sorted.length).isBetween(3900, 4001);
    assertThat(feed.skipped()).isBetween(10L, 100L);
    assertThat(sorted[sorted.length / 2]).isBetween(4.7, 5.3);
    assertThat(sorted[sorted.length * 9 / 10]).isBetween(16.0, 20.0);
  }
}
