package dev.pointsman.bench.routing.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.bench.routing.workload.BenchRequest;
import dev.pointsman.sim.engine.EngineConfig;
import dev.pointsman.sim.engine.EngineListener;
import dev.pointsman.sim.engine.GpuProfile;
import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.engine.KvOffload;
import dev.pointsman.sim.engine.Segment;
import dev.pointsman.sim.engine.SimRequest;
import dev.pointsman.sim.engine.VirtualCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PoliciesTest {
  private final GpuProfiles gpus = GpuProfiles.builtIn();

  private FleetView fleet(String... profiles) {
    List<EngineConfig> configs = new ArrayList<>();
    for (int i = 0; i < profiles.length; i++) {
      configs.add(EngineConfig.of("p" + i, "base", gpus.get(profiles[i])));
    }
    return new FleetView(configs, "base", new VirtualCluster(configs, EngineListener.NONE));
  }

  private static BenchRequest request(long id, long content, int tokens) {
    return new BenchRequest(
        SimRequest.of(id, 0, List.of(new Segment(content, tokens)), 10), "sharegpt", false);
  }

  @Test
  void theStandardRunLeavesOutOnlyTheAblations() {
    assertThat(Policies.ABLATIONS)
        .containsExactly("random", "queue-only", "kv-only", "prefix-only");
    assertThat(Policies.STANDARD)
        .contains(
            "round-robin",
            "weighted-round-robin",
            "weighted-least-request",
            "gie-default",
            "pointsman",
            "greedy-lookahead")
        .doesNotContainAnyElementsOf(Policies.ABLATIONS)
        .hasSize(Policies.ALL.size() - Policies.ABLATIONS.size());
  }

  @Test
  void everyPolicyNameBuildsAndRoutesSomewhere() {
    FleetView fleet = fleet("H100-80", "L4");
    for (String name : Policies.ALL) {
      RoutingPolicy p = Policies.create(name, fleet, new SplittableRandom(1));
      assertThat(p.name()).isEqualTo(name);
      Route r = p.route(request(1, 1, 200));
      assertThat(r.outcome()).as(name).isEqualTo(Route.Outcome.ROUTED);
      assertThat(r.pod()).isBetween(0, 1);
    }
  }

  @Test
  void roundRobinTakesTurns() {
    RoutingPolicy rr = Policies.create("round-robin", fleet("L4", "L4", "L4"), null);
    List<Integer> pods = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      pods.add(rr.route(request(i, i, 10)).pod());
    }
    assertThat(pods).containsExactly(0, 1, 2, 0, 1, 2);
  }

  @Test
  void leastLoadPrefersTheFasterPodForEqualWork() {
    RoutingPolicy p =
        Policies.create("sglang-least-load", fleet("L4", "H100-80"), new SplittableRandom(1));
    p.route(request(1, 1, 500)); // one of them; then the other is cheaper unless H100 is 14× faster
    int h100 = 0;
    for (int i = 2; i < 20; i++) {
      h100 += p.route(request(i, i, 500)).pod();
    }
    assertThat(h100).isGreaterThan(13);
  }

  // policies that track what they sent (dynamo-kv reads the engines' caches instead: below)
  @Test
  void cacheAwarePoliciesFollowTheSharedPrefix() {
    for (String name : List.of("sglang-cache-aware", "prefix-only")) {
      RoutingPolicy p =
          Policies.create(name, fleet("A100-80", "A100-80", "A100-80"), new SplittableRandom(5));
      BenchRequest one = request(1, 77, 2000);
      int first = p.route(one).pod();
      p.onFinish(one, first);
      for (int i = 2; i < 6; i++) {
        BenchRequest next = request(i, 77, 2000);
        int pod = p.route(next).pod();
        assertThat(pod).as(name).isEqualTo(first);
        p.onFinish(next, pod);
      }
    }
  }

  @Test
  void dynamoKvReadsTheEnginesCacheNotJustWhatItSent() {
    // the prompt was served on pod 2 before the router existed: only the engine's KV events
    // (engine-exact overlap) can tell the router pod 2 holds it
    for (long seed = 1; seed <= 8; seed++) {
      List<EngineConfig> configs = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        configs.add(EngineConfig.of("p" + i, "base", gpus.get("A100-80")));
      }
      VirtualCluster cluster = new VirtualCluster(configs, EngineListener.NONE);
      cluster.submit(request(1, 77, 2000).sim(), 2);
      cluster.runUntilIdle();
      FleetView fleet = new FleetView(configs, "base", cluster);
      RoutingPolicy p = Policies.create("dynamo-kv", fleet, new SplittableRandom(seed));
      BenchRequest next =
          new BenchRequest(
              SimRequest.of(2, cluster.now(), List.of(new Segment(77, 2000)), 10),
              "sharegpt",
              false);
      assertThat(fleet.cachedPromptTokensFromKvEvents(next, 2)).isGreaterThan(1900);
      assertThat(fleet.cachedPromptTokensFromKvEvents(next, 0)).isZero();
      assertThat(p.route(next).pod()).as("seed %d", seed).isEqualTo(2);
    }
  }

  @Test
  void dynamoKvCreditsWhatAnEngineHoldsInCpuMemory() {
    // pod 2 served the prompt, then two others that pushed it out of its 200-block GPU cache into
    // its CPU tier: the host-memory overlap is what still tells pod 2 apart
    GpuProfile small = gpus.get("A100-80").withLimits("A100-small", 200, 2_048, 64);
    for (long seed = 1; seed <= 8; seed++) {
      List<EngineConfig> configs = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        configs.add(
            EngineConfig.of("p" + i, "base", small).withOffload(new KvOffload(1_000, 0.005)));
      }
      VirtualCluster cluster = new VirtualCluster(configs, EngineListener.NONE);
      for (long content : new long[] {77, 78, 79}) {
        cluster.submit(
            SimRequest.of(content, cluster.now(), List.of(new Segment(content, 2000)), 10), 2);
        cluster.runUntilIdle();
      }
      FleetView fleet = new FleetView(configs, "base", cluster);
      RoutingPolicy p = Policies.create("dynamo-kv", fleet, new SplittableRandom(seed));
      BenchRequest next =
          new BenchRequest(
              SimRequest.of(5, cluster.now(), List.of(new Segment(77, 2000)), 10),
              "sharegpt",
              false);
      assertThat(fleet.cachedPromptTokensFromKvEvents(next, 2)).isZero();
      assertThat(fleet.offloadedPromptTokensFromKvEvents(next, 2)).isGreaterThan(1900);
      assertThat(p.route(next).pod()).as("seed %d", seed).isEqualTo(2);
    }
  }

  @Test
  void gieDefaultAddsItsLoraAffinityScorerOnlyWhereAdaptersExist() {
    assertThat(Policies.gieDefault(false).scorers())
        .extracting(w -> w.scorer().type() + "=" + w.weight())
        .containsExactly(
            "queue-scorer=2.0", "kv-cache-utilization-scorer=2.0", "prefix-cache-scorer=3.0");
    assertThat(Policies.gieDefault(true).scorers())
        .extracting(w -> w.scorer().type() + "=" + w.weight())
        .containsExactly(
            "queue-scorer=2.0",
            "kv-cache-utilization-scorer=2.0",
            "prefix-cache-scorer=3.0",
            "gie-lora-affinity-scorer=1.0");
  }

  @Test
  void unknownPoliciesAreNamed() {
    assertThatThrownBy(() -> Policies.validate(List.of("pointsman", "fastest")))
        .hasMessageContaining("'fastest'")
        .hasMessageContaining("round-robin");
  }
}
