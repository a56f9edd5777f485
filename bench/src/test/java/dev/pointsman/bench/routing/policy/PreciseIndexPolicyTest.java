package dev.pointsman.bench.routing.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.bench.routing.scenario.TextMix;
import dev.pointsman.bench.routing.workload.BenchRequest;
import dev.pointsman.bench.routing.workload.ClientRequests;
import dev.pointsman.picker.kvevents.KvEventsSettings;
import dev.pointsman.picker.scheduling.prefix.TokenBlockHasher;
import dev.pointsman.sim.engine.EngineConfig;
import dev.pointsman.sim.engine.EngineListener;
import dev.pointsman.sim.engine.GpuProfile;
import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.engine.KvOffload;
import dev.pointsman.sim.engine.Segment;
import dev.pointsman.sim.engine.SimRequest;
import dev.pointsman.sim.engine.VirtualCluster;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.ToIntFunction;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code pointsman-kv-events} in virtual time: the engines' KV events keep the precise index equal
 * to what each engine caches, evictions included, and a request's tokens (as the model's tokenizer
 * gives them) match in that index exactly the prefix the engine would reuse.
 */
class PreciseIndexPolicyTest {
  // 200 blocks of 16 tokens: 3,200 tokens of cache, so ten 1,000-token prompts evict
  private final GpuProfile small =
      GpuProfiles.builtIn().get("L4").withLimits("L4-small", 200, 2_048, 64);
  private final List<EngineConfig> configs =
      List.of(EngineConfig.of("p0", "base", small), EngineConfig.of("p1", "base", small));
  private final VirtualCluster cluster = new VirtualCluster(configs, EngineListener.NONE);
  private final FleetView view =
      new FleetView(
          configs, cluster, null, new ClientRequests("base", Set.of(), TextMix.proseOnly()));
  private final PreciseIndexPolicy policy = new PreciseIndexPolicy(view, new SplittableRandom(1));

  /** A request arriving now: a 1,000-token document and its own 40-token question. */
  private BenchRequest request(long id, long document) {
    return request(cluster, id, document);
  }

  private static BenchRequest request(VirtualCluster cluster, long id, long document) {
    return new BenchRequest(
        new SimRequest(
            id,
            cluster.now(),
            List.of(new Segment(document, 1_000), new Segment(id, 40)),
            8,
            "",
            1L << 50 | id),
        "rag",
        false,
        true,
        false);
  }

  @Test
  void theIndexHoldsExactlyWhatEachEngineCachesAfterEvictions() {
    for (long id = 1; id <= 10; id++) {
      cluster.submit(request(id, 100 + id).sim(), 0);
      cluster.runUntilIdle();
    }
    cluster.submit(request(11, 105).sim(), 1);
    cluster.runUntilIdle();

    for (int pod = 0; pod < 2; pod++) {
      assertThat(hashes(policy.index().engineHashes(FleetView.address(pod))))
          .isEqualTo(hashes(cluster.pod(pod).cachedBlockHashes()));
    }
    assertThat(cluster.pod(0).cachedBlockHashes().length).isLessThanOrEqualTo(200);
  }

  @Test
  void aRequestsTokensMatchThePrefixTheEngineWouldReuse() {
    for (long id = 1; id <= 10; id++) {
      cluster.submit(request(id, 100 + id).sim(), 0);
      cluster.runUntilIdle();
    }
    // document 110 was read last (cached on p0), document 101 first (evicted since)
    for (long document : new long[] {110, 101}) {
      BenchRequest probe = request(99, document);
      int engineBlocks = cluster.pod(0).cachedPromptTokens(probe.sim()) / 16;
      long[] keys = TokenBlockHasher.hash(null, view.promptTokenIds(probe), 16, 1 << 14);
      int[] matched = policy.index().match(keys, a -> a.equals(FleetView.address(0)) ? 0 : -1, 1);
      assertThat(matched[0]).as("document %d", document).isEqualTo(engineBlocks);
    }
    assertThat(cluster.pod(0).cachedPromptTokens(request(99, 110).sim())).isPositive();
    assertThat(cluster.pod(0).cachedPromptTokens(request(99, 101).sim())).isZero();
  }

  @Test
  void blocksAnEngineOffloadedToCpuMemoryMatchAsTheEngineWouldLoadThem() {
    // the same pods, each with a CPU tier of 100,000 blocks
    List<EngineConfig> offloading =
        configs.stream().map(c -> c.withOffload(new KvOffload(100_000, 0.005))).toList();
    VirtualCluster c = new VirtualCluster(offloading, EngineListener.NONE);
    FleetView v =
        new FleetView(
            offloading, c, null, new ClientRequests("base", Set.of(), TextMix.proseOnly()));
    PreciseIndexPolicy p = new PreciseIndexPolicy(v, new SplittableRandom(1));
    for (long id = 1; id <= 10; id++) {
      c.submit(request(c, id, 100 + id).sim(), 0);
      c.runUntilIdle();
    }

    // document 101 left p0's GPU long ago but is still in its CPU tier
    BenchRequest probe = request(c, 99, 101);
    int gpu = c.pod(0).cachedPromptTokens(probe.sim()) / 16;
    int cpu = c.pod(0).offloadedPromptTokens(probe.sim()) / 16;
    assertThat(gpu).isZero();
    assertThat(cpu).isEqualTo(1_000 / 16);
    long[] keys = TokenBlockHasher.hash(null, v.promptTokenIds(probe), 16, 1 << 14);
    ToIntFunction<String> indexOf = a -> a.equals(FleetView.address(0)) ? 0 : -1;
    int[] matched = p.index().match(keys, indexOf, 1);
    assertThat(matched).containsExactly(gpu);
    assertThat(p.index().matchOffloaded(keys, matched, indexOf)).containsExactly(cpu);
    // sized for both tiers, as the operator guide says to size the picker's
    assertThat(PreciseIndexPolicy.maxBlocks(v)).isEqualTo(200 + 100_000);
    assertThat(PreciseIndexPolicy.maxBlocks(view)).isEqualTo(KvEventsSettings.DEFAULT_MAX_BLOCKS);
  }

  @Test
  void itRoutesLikeThePickerAndIsNamedOnlyWhenAsked() {
    assertThat(policy.route(request(1, 7)).outcome()).isEqualTo(Route.Outcome.ROUTED);
    assertThat(Policies.STANDARD).doesNotContain(PreciseIndexPolicy.NAME);
    assertThat(Policies.validate(List.of(PreciseIndexPolicy.NAME)))
        .containsExactly(PreciseIndexPolicy.NAME);
  }

  private static Set<Long> hashes(long[] values) {
    return Arrays.stream(values).boxed().collect(Collectors.toSet());
  }
}
