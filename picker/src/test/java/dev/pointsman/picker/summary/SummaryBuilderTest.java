package dev.pointsman.picker.summary;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.inference.model.ModelEntry;
import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.inference.model.ModelsConfig;
import dev.pointsman.inference.model.PoolTarget;
import dev.pointsman.picker.scheduling.AdapterListing;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.EndpointState;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.PoolSnapshot;
import dev.pointsman.picker.scheduling.Saturation;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SummaryBuilderTest {
  private final Map<String, PoolSnapshot> snapshots = new HashMap<>();
  private final HotPrefixes hot = new HotPrefixes(4);
  private final SummaryBuilder builder =
      new SummaryBuilder(
          "east",
          1000,
          250,
          new SummaryBuilder.Sources(
              () -> List.copyOf(snapshots.keySet()),
              snapshots::get,
              pool -> Saturation.DEFAULT,
              () ->
                  ModelResolver.of(
                      new ModelsConfig(
                          List.of(
                              ModelEntry.base("llama", List.of(new PoolTarget("main", 1))),
                              ModelEntry.base("qwen", List.of(new PoolTarget("big", 1)))),
                          null))),
          new Scheduler(
              new PrefixIndex(100), new InFlightTracker(), PrefixHasher.DEFAULT, () -> 0L),
          hot);

  private static EndpointState endpoint(String address, String pool, int waiting, boolean up) {
    EndpointMetrics m =
        new EndpointMetrics(waiting, 1, 0.1, 100_000, Set.of("sql"), Set.of(), 4, 0.0, 0L)
            .withListing(AdapterListing.of(Set.of("chat")));
    return new EndpointState(new Endpoint(address, pool, Map.of("gpu", "H100-80")), m, up);
  }

  @Test
  void eachPoolSaysWhatIsReadyWhatIsQueuedAndWhatIsResident() {
    snapshots.put(
        "main",
        new PoolSnapshot(
            "main",
            List.of(
                endpoint("10.0.0.1:8000", "main", 2, true),
                endpoint("10.0.0.2:8000", "main", 9, false))));
    hot.record("main", "llama", "p".repeat(128));

    ClusterSummary s = builder.build(7, 1234);

    assertThat(s.version()).isEqualTo(ClusterSummary.VERSION);
    assertThat(s.cluster()).isEqualTo("east");
    assertThat(s.sequence()).isEqualTo(7);
    assertThat(s.generatedAtMillis()).isEqualTo(1234);
    PoolSummary main = s.pools().getFirst();
    assertThat(main.models()).containsExactly("llama");
    assertThat(main.endpoints()).isEqualTo(2);
    assertThat(main.readyEndpoints()).isEqualTo(1);
    assertThat(main.queuedRequests()).isEqualTo(2);
    assertThat(main.saturation()).isEqualTo(2 / 5.0);
    assertThat(main.saturated()).isFalse();
    assertThat(main.adapters()).containsExactly("chat", "sql");
    assertThat(main.predictedTtftMillis()).isPositive();
    assertThat(main.predictedTpotMillis()).isPositive();
    assertThat(main.ttftPerRequestMillis()).isPositive().isLessThan(main.predictedTtftMillis());
    assertThat(main.hotPrefixes()).containsExactly(HotPrefixes.chain("llama", "p".repeat(128))[1]);
    assertThat(main.serving()).isTrue();
  }

  @Test
  void aLongerQueuePredictsALaterFirstToken() {
    snapshots.put(
        "main", new PoolSnapshot("main", List.of(endpoint("10.0.0.1:8000", "main", 0, true))));
    double idle = builder.build(1, 0).pools().getFirst().predictedTtftMillis();

    snapshots.put(
        "main", new PoolSnapshot("main", List.of(endpoint("10.0.0.1:8000", "main", 20, true))));
    PoolSummary busy = builder.build(2, 0).pools().getFirst();

    assertThat(busy.predictedTtftMillis()).isGreaterThan(idle);
    assertThat(busy.saturated()).isTrue();
  }

  @Test
  void theIncrementPerRequestIsSharedByTheReadyEndpoints() {
    snapshots.put(
        "main", new PoolSnapshot("main", List.of(endpoint("10.0.0.1:8000", "main", 0, true))));
    double one = builder.build(1, 0).pools().getFirst().ttftPerRequestMillis();
    snapshots.put(
        "main",
        new PoolSnapshot(
            "main",
            List.of(
                endpoint("10.0.0.1:8000", "main", 0, true),
                endpoint("10.0.0.2:8000", "main", 0, true))));

    double two = builder.build(2, 0).pools().getFirst().ttftPerRequestMillis();

    assertThat(two).isCloseTo(one / 2, org.assertj.core.data.Offset.offset(1e-9));
  }

  @Test
  void aPoolWithoutReadyEndpointsDoesNotServe() {
    snapshots.put(
        "big", new PoolSnapshot("big", List.of(endpoint("10.0.0.3:8000", "big", 0, false))));

    PoolSummary big = builder.build(1, 0).pools().getFirst();

    assertThat(big.models()).containsExactly("qwen");
    assertThat(big.readyEndpoints()).isZero();
    assertThat(big.predictedTtftMillis()).isEqualTo(-1);
    assertThat(big.predictedTpotMillis()).isEqualTo(-1);
    assertThat(big.ttftPerRequestMillis()).isZero();
    assertThat(big.saturation()).isEqualTo(1);
    assertThat(big.saturated()).isTrue();
    assertThat(big.serving()).isFalse();
  }
}
