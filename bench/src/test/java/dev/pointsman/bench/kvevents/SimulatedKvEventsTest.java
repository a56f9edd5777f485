package dev.pointsman.bench.kvevents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.kvevents.KvBlockIndex;
import dev.pointsman.picker.kvevents.KvEventSubscribers;
import dev.pointsman.picker.kvevents.KvEventsObserver;
import dev.pointsman.picker.kvevents.KvEventsSettings;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.server.EngineOptions;
import dev.pointsman.sim.server.Fleet;
import dev.pointsman.sim.server.FleetConfig;
import dev.pointsman.sim.server.PodConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The simulator's KV-event publisher and the picker's subscriber agree over real ZeroMQ sockets:
 * after a run that fills a pod's KV cache past its capacity, the picker's precise index holds
 * exactly the blocks the simulated engine's prefix cache holds.
 */
class SimulatedKvEventsTest {

  @Test
  void thePreciseIndexEqualsTheSimulatedCacheAfterARunWithEvictions() throws Exception {
    run(
        new EngineOptions(null, null, null, null, null, 0, 0, null),
        (fleet, index, address) -> {
          long[] cached = sorted(fleet.cachedBlockHashes(0));
          assertThat(cached.length).isGreaterThan(100);
          until(
              "the index holds the cache",
              () -> Arrays.equals(index.engineHashes(address), cached),
              () -> difference(index.engineHashes(address), cached));
        });
  }

  @Test
  void withOffloadingTheIndexHoldsBothTiersAndTheCpuTiersTokenlessStoresFindTheirKeys()
      throws Exception {
    // 8 GiB of CPU tier: 65,536 tokens of llama-3-8b, 4,096 blocks, more than the L4's GPU cache
    run(
        new EngineOptions(null, null, null, null, null, 0, 0, 8.0),
        (fleet, index, address) -> {
          long[] gpu = fleet.cachedBlockHashes(0);
          long[] cpu = fleet.offloadedBlockHashes(0);
          assertThat(cpu.length).isEqualTo(4_096).isGreaterThan(gpu.length);
          long[] either =
              sorted(
                  LongStream.concat(LongStream.of(gpu), LongStream.of(cpu)).distinct().toArray());
          until(
              "the index holds both tiers",
              () -> Arrays.equals(index.engineHashes(address), either),
              () -> difference(index.engineHashes(address), either));
          // blocks the GPU evicted that the CPU tier keeps are still held
          Set<Long> onGpu = LongStream.of(gpu).boxed().collect(Collectors.toSet());
          assertThat(LongStream.of(cpu).filter(h -> !onGpu.contains(h)).count()).isPositive();
        });
  }

  /**
   * What the test checks once the run is over: the fleet, the picker's index, the pod's address.
   */
  private interface Check {
    void check(Fleet fleet, KvBlockIndex index, String address) throws Exception;
  }

  /**
   * Runs 40 distinct long prompts, more blocks than the pod's GPU cache holds and a few sharing a
   * prefix, through one simulated L4 pod whose events the picker's subscribers follow.
   */
  private static void run(EngineOptions options, Check check) throws Exception {
    PodConfig pod =
        new PodConfig("l4-a", "L4", null, null, 0, null, null, null, null, null, options, null);
    AtomicLong removed = new AtomicLong();
    AtomicLong orphans = new AtomicLong();
    KvEventsObserver counting =
        new KvEventsObserver() {
          @Override
          public void batch(String pool, int n, KvBlockIndex.Applied applied) {
            removed.addAndGet(applied.removed());
            orphans.addAndGet(applied.orphans());
          }
        };
    try (Fleet fleet = Fleet.start(new FleetConfig(List.of(pod), 7L, null), GpuProfiles.builtIn());
        KvEventSubscribers subscribers =
            new KvEventSubscribers(new KvBlockIndex(1 << 20), counting, System::nanoTime)) {
      String url = fleet.urls().get(0);
      String address = url.substring("http://".length());
      int[] ports = fleet.kvEventPorts().get(0);
      subscribers.update(
          "l4",
          KvEventsSettings.on(5557, 5558),
          List.of(
              new Endpoint(
                  address,
                  "l4",
                  Map.of(
                      KvEventsSettings.PORT_LABEL, String.valueOf(ports[0]),
                      KvEventsSettings.REPLAY_PORT_LABEL, String.valueOf(ports[1])))));

      HttpClient http = HttpClient.newHttpClient();
      List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        String prompt =
            ("shared system prompt " + (i % 3)).repeat(200) + ("user " + i + " ").repeat(1200);
        String body =
            "{\"model\":\"meta-llama/Llama-3.1-8B-Instruct\",\"max_tokens\":2,\"prompt\":\""
                + prompt
                + "\"}";
        calls.add(
            http.sendAsync(
                HttpRequest.newBuilder(URI.create(url + "/v1/completions"))
                    .header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build(),
                HttpResponse.BodyHandlers.ofString()));
      }
      for (CompletableFuture<HttpResponse<String>> c : calls) {
        assertThat(c.join().statusCode()).isEqualTo(200);
      }

      check.check(fleet, subscribers.index(), address);
      assertThat(removed.get()).as("evictions seen").isPositive();
      assertThat(orphans.get()).as("orphans").isZero();
      assertThat(subscribers.index().blockSize(address)).isEqualTo(16);
    }
  }

  private static long[] sorted(long[] hashes) {
    long[] out = hashes.clone();
    Arrays.sort(out);
    return out;
  }

  private static String difference(long[] held, long[] cached) {
    Set<Long> index = LongStream.of(held).boxed().collect(Collectors.toSet());
    Set<Long> cache = LongStream.of(cached).boxed().collect(Collectors.toSet());
    Set<Long> onlyIndex = new HashSet<>(index);
    onlyIndex.removeAll(cache);
    cache.removeAll(index);
    return "index "
        + held.length
        + ", cache "
        + cached.length
        + ", only in the index "
        + onlyIndex.size()
        + ", only in the cache "
        + cache.size();
  }

  private static void until(String what, BooleanSupplier condition, Supplier<String> state) {
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what + ": " + state.get());
      }
      LockSupport.parkNanos(1_000_000L);
    }
  }
}
