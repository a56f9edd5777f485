package dev.pointsman.picker.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.datastore.Datastore;
import dev.pointsman.picker.datastore.DatastoreConfig;
import dev.pointsman.picker.datastore.PoolDefinition;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.Explanation;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scrape.Engine;
import dev.pointsman.picker.scrape.ScrapeReport;
import dev.pointsman.picker.scrape.Signal;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Missing signals and sleeping engines, visible per endpoint: gauges and debug pages. */
class EndpointSignalsTest {

  private static final String A = "10.0.0.1:8000";
  private static final String B = "10.0.0.2:8000";
  private static final EndpointMetrics IDLE =
      new EndpointMetrics(0, 0, 0.1, -1, Set.of(), Set.of(), -1, Double.NaN, 0);

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final Datastore store =
      new Datastore(DatastoreConfig.DEFAULT, new InFlightTracker(), clock::get);

  private static PoolDefinition pool(String... addresses) {
    return new PoolDefinition(
        "sg",
        Engine.SGLANG,
        java.util.Arrays.stream(addresses).map(a -> new Endpoint(a, "sg")).toList());
  }

  private double gauge(String name, String address, String signal) {
    var search = registry.find(name).tag("pool", "sg").tag("endpoint", address);
    Gauge g = (signal == null ? search : search.tag("signal", signal)).gauge();
    return g == null ? Double.NaN : g.value();
  }

  @Test
  void eachEndpointHasAGaugePerSignalAndOneForSleepRemovedWithIt() {
    EndpointGauges gauges = new EndpointGauges(registry, store);
    store.addMembershipListener(m -> gauges.update());
    store.setPools(List.of(pool(A, B)));

    store.onSuccess(A, IDLE, new ScrapeReport(Set.of(Signal.KV_CAPACITY), null, "ok"));
    store.onSuccess(B, IDLE, new ScrapeReport(Set.of(), "sleeping", "ok"));

    assertThat(gauge("pointsman.endpoint.signal.missing", A, "kv_capacity")).isEqualTo(1);
    assertThat(gauge("pointsman.endpoint.signal.missing", A, "prefix_cache")).isZero();
    assertThat(gauge("pointsman.endpoint.sleeping", A, null)).isZero();
    assertThat(gauge("pointsman.endpoint.sleeping", B, null)).isEqualTo(1);
    assertThat(registry.find("pointsman.endpoint.signal.missing").gauges())
        .hasSize(2 * Signal.values().length);

    store.setPools(List.of(pool(A)));
    assertThat(gauge("pointsman.endpoint.sleeping", B, null)).isNaN();
    assertThat(registry.find("pointsman.endpoint.signal.missing").gauges())
        .hasSize(Signal.values().length);
  }

  @Test
  void debugPagesShowMissingSignalsAndWhyAnEndpointIsNotServing() {
    store.setPools(List.of(pool(A, B)));
    store.onSuccess(
        A,
        IDLE,
        new ScrapeReport(Set.of(Signal.PREFIX_CACHE, Signal.KV_CAPACITY), null, "no_lineage"));
    store.onSuccess(B, IDLE, new ScrapeReport(Set.of(), "sleeping", "ok"));

    List<EndpointDebug.View> views = new EndpointDebug(store).endpoints();
    assertThat(views).extracting(EndpointDebug.View::address).containsExactly(A, B);
    assertThat(views.get(0).missingSignals()).containsExactly("kv_capacity", "prefix_cache");
    assertThat(views.get(0).listing()).isEqualTo("no_lineage");
    assertThat(views.get(0).available()).isTrue();
    assertThat(views.get(0).kvCapacityTokens()).isNull();
    assertThat(views.get(1).available()).isFalse();
    assertThat(views.get(1).notServing()).isEqualTo("sleeping");
    assertThat(views.get(0).scrapeFailure()).isNull();

    // B's scrapes fail: the latest reason and the count show, until one succeeds
    store.onFailure(B, "connect");
    store.onFailure(B, "tls");
    EndpointDebug.View failing = new EndpointDebug(store).endpoints().get(1);
    assertThat(failing.scrapeFailure()).isEqualTo("tls");
    assertThat(failing.failuresInARow()).isEqualTo(2);
    store.onSuccess(B, IDLE, ScrapeReport.NONE);
    EndpointDebug.View healed = new EndpointDebug(store).endpoints().get(1);
    assertThat(healed.scrapeFailure()).isNull();
    assertThat(healed.failuresInARow()).isZero();

    Explanation e =
        new Explanation(
            List.of("queue-scorer"),
            new double[] {1},
            List.of(A),
            new double[][] {{0.5}},
            new double[] {0.5},
            0);
    List<DecisionRecord.CandidateScores> shown =
        DecisionLog.candidates(e, a -> store.report(a).missing());
    assertThat(shown.getFirst().missingSignals()).containsExactly("kv_capacity", "prefix_cache");
  }
}
