package dev.pointsman.sim.server;

import dev.pointsman.sim.engine.KvOffload;
import java.util.List;

/**
 * How a simulated pod's engine is deployed, as far as its metrics show it. Each option applies to
 * one engine flavor; {@link PodConfig} rejects an option set for another flavor.
 *
 * @param dataParallel vLLM: engines in the pod ({@code --data-parallel-size}), reported as {@code
 *     engine="0"}, {@code "1"}, ...; default 1
 * @param tensorParallel SGLang: tensor-parallel ranks ({@code --tp-size}); default 1
 * @param allSchedulerMetrics SGLang: every rank reports its series with its own {@code tp_rank}
 *     ({@code --enable-metrics-for-all-schedulers}); default false (rank 0 only)
 * @param priorities SGLang: priority values in use ({@code --enable-priority-scheduling}); when
 *     set, every series carries {@code priority=""} and the request counts add one series per
 *     priority
 * @param release TensorRT-LLM ({@code trtllm}): {@code current} (default, the {@code
 *     trtllm_}-prefixed names of the newest collector) or {@code 1.1} (the unprefixed latency
 *     histograms only)
 * @param kvEventsPort vLLM: publish KV-cache events on this PUB port ({@code --kv-events-config},
 *     vLLM's default 5557), 0 for a free one; default none (events off)
 * @param kvReplayPort vLLM: the ROUTER replay port when events are on, 0 for a free one; default 0
 * @param kvOffloadGiB vLLM: CPU memory for offloaded KV blocks ({@code --kv-offloading-size}, the
 *     native offloading connector), loaded back at {@link KvOffload#DEFAULT_GB_PER_SECOND} per GPU;
 *     default 0, none
 */
public record EngineOptions(
    Integer dataParallel,
    Integer tensorParallel,
    Boolean allSchedulerMetrics,
    List<Integer> priorities,
    String release,
    Integer kvEventsPort,
    Integer kvReplayPort,
    Double kvOffloadGiB) {

  /** A single engine, no priority scheduling, the current release. */
  public static final EngineOptions NONE = new EngineOptions(null, null, null, null, null);

  /** Options without KV-cache events. */
  public EngineOptions(
      Integer dataParallel,
      Integer tensorParallel,
      Boolean allSchedulerMetrics,
      List<Integer> priorities,
      String release) {
    this(dataParallel, tensorParallel, allSchedulerMetrics, priorities, release, null, null, null);
  }

  /** Applies defaults and validates the values. */
  public EngineOptions {
    dataParallel = dataParallel == null ? 1 : dataParallel;
    tensorParallel = tensorParallel == null ? 1 : tensorParallel;
    allSchedulerMetrics = allSchedulerMetrics != null && allSchedulerMetrics;
    priorities = priorities == null ? List.of() : List.copyOf(priorities);
    release = release == null ? "current" : release;
    kvReplayPort = kvReplayPort == null ? 0 : kvReplayPort;
    kvOffloadGiB = kvOffloadGiB == null ? 0.0 : kvOffloadGiB;
    if (!(kvOffloadGiB >= 0) || Double.isInfinite(kvOffloadGiB)) {
      throw new IllegalArgumentException("kvOffloadGiB: " + kvOffloadGiB + " (expected >= 0)");
    }
    if (kvEventsPort != null && (kvEventsPort < 0 || kvEventsPort > 65535)) {
      throw new IllegalArgumentException("kvEventsPort: " + kvEventsPort + " (expected 0..65535)");
    }
    if (kvReplayPort < 0 || kvReplayPort > 65535) {
      throw new IllegalArgumentException("kvReplayPort: " + kvReplayPort + " (expected 0..65535)");
    }
    if (dataParallel < 1 || dataParallel > 64) {
      throw new IllegalArgumentException("dataParallel: " + dataParallel + " (expected 1..64)");
    }
    if (tensorParallel < 1 || tensorParallel > 64) {
      throw new IllegalArgumentException("tensorParallel: " + tensorParallel + " (expected 1..64)");
    }
    if (priorities.size() != priorities.stream().distinct().count()) {
      throw new IllegalArgumentException("priorities: " + priorities + " (expected unique values)");
    }
    if (!release.equals("current") && !release.equals("1.1")) {
      throw new IllegalArgumentException(
          "release: " + release + " (expected one of [current, 1.1])");
    }
  }

  /** Fails when an option is set that {@code engine} does not have. */
  void checkFor(String engine) {
    only(dataParallel != 1, "dataParallel", "vllm", engine);
    only(tensorParallel != 1, "tensorParallel", "sglang", engine);
    only(allSchedulerMetrics, "allSchedulerMetrics", "sglang", engine);
    only(!priorities.isEmpty(), "priorities", "sglang", engine);
    only(!release.equals("current"), "release", "trtllm", engine);
    only(kvEventsPort != null, "kvEventsPort", "vllm", engine);
    only(kvOffloadGiB > 0, "kvOffloadGiB", "vllm", engine);
  }

  private static void only(boolean set, String option, String owner, String engine) {
    if (set && !owner.equals(engine)) {
      throw new IllegalArgumentException(
          "engineOptions."
              + option
              + ": set for engine "
              + engine
              + " (expected engine "
              + owner
              + ")");
    }
  }

  /** The {@code tp_rank} values that report metrics. */
  int reportingRanks() {
    return allSchedulerMetrics ? tensorParallel : 1;
  }
}
