package dev.pointsman.bench;

import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.config.ReplicationSection;
import dev.pointsman.picker.replication.Outbox;
import dev.pointsman.picker.scheduling.Decision;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.EndpointState;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.PluginSpec;
import dev.pointsman.picker.scheduling.Plugins;
import dev.pointsman.picker.scheduling.PolicyConfig;
import dev.pointsman.picker.scheduling.PoolSnapshot;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.SchedulingPolicy;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Decision time of {@link Scheduler#schedule} under the production default policy ({@code
 * Plugins.build(PolicyConfig.defaults())}) against one pool of {@code endpoints} endpoints.
 *
 * <p>Realistic state, seeded: a mixed H100/A100/L4 fleet with random queues, batches, KV use and
 * LoRA adapters; a warm prefix index in which about one endpoint in eight holds some leading blocks
 * of the shared system prompt and every endpoint holds blocks of unrelated prompts; requests whose
 * ~2 KB prompt prefix is a shared system prompt followed by one of 64 user tails, a quarter of them
 * for a LoRA adapter. Each decision's ticket is released at once, so the in-flight tracker stays
 * steady; each decision also records its blocks in the prefix index, as in production.
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.SampleTime, Mode.AverageTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SchedulerBenchmark {
  private static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
  private static final String[] GPUS = {"H100-80", "A100-80", "L4"};
  private static final String[] ADAPTERS = {
    "sql-lora", "chat-lora", "summarize-lora", "code-lora", "legal-lora", "med-lora", "fin-lora"
  };
  private static final int VARIANTS = 64;

  @Param({"16", "64", "256", "1024"})
  public int endpoints;

  /** Characters per prompt: a shared system prompt (three quarters) and a user tail. */
  @Param({"2048"})
  public int promptChars;

  /** Prefix blocks the hasher reads (the picker's default; 256 was the bound before issue 16). */
  @Param({"8192"})
  public int maxBlocks;

  /**
   * Whether the scheduler shares what it learns with picker replicas: each decision then queues its
   * pick in the replication {@link Outbox}, which a background thread drains every 5 ms as the
   * replicator's batch thread does (without sending: that thread's cost is the traffic harness's,
   * docs/operator-guide.md).
   */
  @Param({"false"})
  public boolean sharing;

  /**
   * The predicted-latency scorer's {@code decodeValue} (0, the default, leaves the built-in blend
   * as it is; above 0 it adds the batch charge, docs/plugins/predicted-latency-scorer.md).
   */
  @Param({"0"})
  public double decodeValue;

  /**
   * The predicted-latency scorer's {@code kvAdmission} (1, the default: the wait for KV blocks on a
   * full cache is predicted; 0 turns it off).
   */
  @Param({"1"})
  public int kvAdmission;

  /**
   * The lowest KV-cache use an endpoint reports: 0 draws it from 0–0.95, as most fleets below
   * saturation; 0.995 fills every cache, so that the predicted wait for KV blocks ({@code
   * kvAdmission}) is computed for nearly every candidate.
   */
  @Param({"0"})
  public double kvFloor;

  /**
   * Requests in flight on every endpoint, each with its own unrelated 2 KB prompt: the predicted-
   * latency scorer asks whether the holder's cached prefix is shared by one of them, and an
   * unshared one (a conversation's history) is read against every one (the worst case).
   */
  @Param({"0"})
  public int liveRequests;

  private Scheduler scheduler;
  private SchedulingPolicy policy;
  private ScheduledExecutorService drainer;
  private PoolSnapshot pool;
  private SchedulingRequest[] requests;
  private SplittableRandom random;
  private int next;

  /**
   * The built-in blend with the predicted-latency scorer's {@code decodeValue} and {@code
   * kvAdmission} set.
   */
  static PolicyConfig withScorerParams(double decodeValue, int kvAdmission) {
    PolicyConfig defaults = PolicyConfig.defaults();
    List<PluginSpec> scorers = new ArrayList<>();
    for (PluginSpec spec : defaults.scorersOrDefault()) {
      if (spec.type().equals("predicted-latency-scorer")) {
        Map<String, Object> params = new HashMap<>(spec.params());
        params.put("decodeValue", decodeValue);
        params.put("kvAdmission", kvAdmission);
        spec = new PluginSpec(spec.type(), spec.weight(), params);
      }
      scorers.add(spec);
    }
    return new PolicyConfig(null, scorers, null, null, null);
  }

  @Setup
  public void setUp() {
    SplittableRandom seed = new SplittableRandom(42);
    PrefixHasher hasher = new PrefixHasher(PrefixHasher.DEFAULT.blockChars(), maxBlocks);
    PrefixIndex index =
        new PrefixIndex(
            PickerApp.PREFIX_BLOCKS_PER_ENDPOINT,
            PrefixIndex.Forgetting.TAIL_FIRST,
            PrefixIndex.UNBOUNDED,
            PickerApp.PREFIX_CHECKPOINTS);
    InFlightTracker inFlight = new InFlightTracker();
    scheduler = new Scheduler(index, inFlight, hasher, System::nanoTime);
    policy =
        Plugins.build(
            decodeValue > 0 || kvAdmission != 1
                ? withScorerParams(decodeValue, kvAdmission)
                : PolicyConfig.defaults());
    if (sharing) {
      Outbox outbox = Outbox.of(ReplicationSection.DEFAULTS);
      scheduler.shareWith(outbox);
      drainer =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread t = new Thread(r, "drainer");
                t.setDaemon(true);
                return t;
              });
      drainer.scheduleWithFixedDelay(outbox::drain, 5, 5, TimeUnit.MILLISECONDS);
    }

    List<EndpointState> states = new ArrayList<>(endpoints);
    for (int i = 0; i < endpoints; i++) {
      String address = "10.0." + (i / 250) + "." + (i % 250 + 1) + ":8000";
      Endpoint endpoint =
          new Endpoint(address, "llama", Map.of("gpu", GPUS[i % GPUS.length], "zone", "a"));
      states.add(new EndpointState(endpoint, metrics(seed, kvFloor), seed.nextInt(50) != 0));
    }
    pool = new PoolSnapshot("llama", states);

    String system = text(seed, promptChars * 3 / 4);
    requests = new SchedulingRequest[VARIANTS];
    for (int v = 0; v < VARIANTS; v++) {
      String prompt = system + text(seed, promptChars / 4);
      String adapter = v % 4 == 0 ? ADAPTERS[v % ADAPTERS.length] : null;
      requests[v] =
          new SchedulingRequest(
              "req-" + v,
              adapter == null ? MODEL : adapter,
              adapter,
              prompt,
              400 + seed.nextInt(3_000),
              256,
              v % 3 == 0,
              null);
    }

    // Warm the prefix index: unrelated prompts everywhere, parts of the shared prompts on some.
    for (EndpointState e : states) {
      for (int p = 0; p < 8; p++) {
        index.record(e.address(), hasher.hash(MODEL, text(seed, 2_048)));
      }
      if (seed.nextInt(8) == 0) {
        SchedulingRequest r = requests[seed.nextInt(VARIANTS)];
        long[] blocks = hasher.hash(r.model(), r.promptPrefix());
        int keep = 1 + seed.nextInt(blocks.length);
        index.record(e.address(), java.util.Arrays.copyOf(blocks, keep));
      }
    }
    for (EndpointState e : states) {
      for (int k = 0; k < liveRequests; k++) {
        long[] blocks = hasher.hash(MODEL, text(seed, 2_048));
        inFlight.assign(e.address(), 512, 0, null, false, blocks);
      }
    }
    random = new SplittableRandom(7);
  }

  @TearDown
  public void tearDown() {
    if (drainer != null) {
      drainer.shutdownNow();
    }
  }

  @Benchmark
  public Decision schedule() {
    SchedulingRequest request = requests[next++ & (VARIANTS - 1)];
    Decision decision = scheduler.schedule(request, pool, policy, random);
    if (decision instanceof Decision.Picked picked) {
      picked.ticket().release();
    }
    return decision;
  }

  private static EndpointMetrics metrics(SplittableRandom seed, double kvFloor) {
    Set<String> running = new HashSet<>();
    Set<String> waiting = new HashSet<>();
    int adapters = seed.nextInt(4);
    for (int a = 0; a < adapters; a++) {
      running.add(ADAPTERS[seed.nextInt(ADAPTERS.length)]);
    }
    if (seed.nextInt(4) == 0) {
      waiting.add(ADAPTERS[seed.nextInt(ADAPTERS.length)]);
    }
    return new EndpointMetrics(
        seed.nextInt(12),
        seed.nextInt(64),
        kvFloor > 0 ? kvFloor + seed.nextDouble(1 - kvFloor) : seed.nextDouble(0.95),
        seed.nextInt(4) == 0 ? -1 : 16L * 27_118,
        running,
        waiting,
        4,
        seed.nextDouble(),
        0L);
  }

  private static String text(SplittableRandom seed, int chars) {
    StringBuilder sb = new StringBuilder(chars);
    while (sb.length() < chars) {
      int word = 2 + seed.nextInt(8);
      for (int i = 0; i < word && sb.length() < chars; i++) {
        sb.append((char) ('a' + seed.nextInt(26)));
      }
      if (sb.length() < chars) {
        sb.append(' ');
      }
    }
    return sb.toString();
  }
}
