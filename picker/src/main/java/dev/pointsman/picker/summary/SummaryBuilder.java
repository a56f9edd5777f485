package dev.pointsman.picker.summary;

import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.inference.model.PoolTarget;
import dev.pointsman.inference.model.ServedModel;
import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.PoolSnapshot;
import dev.pointsman.picker.scheduling.Saturation;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Makes a {@link ClusterSummary} from what the picker knows now: each pool's snapshot, the
 * scheduler's TTFT prediction for a request of the reference size, the pool's saturation rule, the
 * models that route to it and its hot prefixes. Counts nothing and changes nothing.
 */
public record SummaryBuilder(
    String cluster,
    int referencePromptTokens,
    long intervalMillis,
    SummaryBuilder.Sources sources,
    Scheduler scheduler,
    HotPrefixes hot) {

  public SummaryBuilder {
    Objects.requireNonNull(cluster, "cluster");
    if (referencePromptTokens < 1 || intervalMillis < 1) {
      throw new IllegalArgumentException(
          "referencePromptTokens, intervalMillis: "
              + referencePromptTokens
              + ", "
              + intervalMillis
              + " (expected both >= 1)");
    }
    Objects.requireNonNull(sources, "sources");
    Objects.requireNonNull(scheduler, "scheduler");
    Objects.requireNonNull(hot, "hot");
  }

  /**
   * Where the builder reads from.
   *
   * @param pools the pool names
   * @param snapshot a pool's latest snapshot
   * @param saturation a pool's saturation rule
   * @param resolver the models in force
   */
  public record Sources(
      Supplier<List<String>> pools,
      Function<String, PoolSnapshot> snapshot,
      Function<String, Saturation> saturation,
      Supplier<ModelResolver> resolver) {
    public Sources {
      Objects.requireNonNull(pools, "pools");
      Objects.requireNonNull(snapshot, "snapshot");
      Objects.requireNonNull(saturation, "saturation");
      Objects.requireNonNull(resolver, "resolver");
    }
  }

  /** The summary now: refresh {@code sequence}, made at {@code nowMillis}. */
  public ClusterSummary build(long sequence, long nowMillis) {
    Map<String, List<String>> models = modelsByPool(sources.resolver().get());
    List<PoolSummary> pools = new ArrayList<>();
    for (String pool : new TreeSet<>(sources.pools().get())) {
      pools.add(pool(pool, models.getOrDefault(pool, List.of())));
    }
    return new ClusterSummary(
        ClusterSummary.VERSION,
        cluster,
        sequence,
        nowMillis,
        intervalMillis,
        referencePromptTokens,
        pools);
  }

  private PoolSummary pool(String name, List<String> models) {
    PoolSnapshot snapshot = sources.snapshot().apply(name);
    String model = models.isEmpty() ? name : models.getFirst();
    SchedulingRequest reference = reference(model, referencePromptTokens);
    List<Candidate> candidates = scheduler.candidatesFor(reference, List.of(snapshot));
    Saturation saturation = sources.saturation().apply(name);
    double ttft = scheduler.bestTtftSeconds(reference, candidates);
    double tpot = scheduler.bestTpotSeconds(reference, candidates);
    // one more request of the reference size ahead: about its prefill on the fastest endpoint
    double twice =
        scheduler.bestTtftSeconds(reference(model, 2 * referencePromptTokens), candidates);
    double perRequest =
        Double.isNaN(ttft) || Double.isNaN(twice)
            ? 0
            : Math.max(0, twice - ttft) * 1000 / Math.max(1, candidates.size());
    int queued = 0;
    TreeSet<String> adapters = new TreeSet<>();
    for (Candidate c : candidates) {
      queued += c.waiting();
      adapters.addAll(c.metrics().runningAdapters());
      adapters.addAll(c.metrics().waitingAdapters());
      adapters.addAll(c.metrics().listedAdapters().adapters());
    }
    boolean any = !candidates.isEmpty();
    return new PoolSummary(
        name,
        models,
        snapshot.endpoints().size(),
        candidates.size(),
        !any || Double.isNaN(ttft) ? -1 : ttft * 1000,
        perRequest,
        any ? saturation.load(candidates) : 1,
        !any || saturation.saturated(candidates),
        queued,
        List.copyOf(adapters),
        hot.of(name),
        !any || Double.isNaN(tpot) ? -1 : tpot * 1000);
  }

  private static SchedulingRequest reference(String model, int promptTokens) {
    return new SchedulingRequest("fleet-summary", model, null, "", promptTokens, -1, false, null);
  }

  /** Each pool's served models (canonical names), sorted. */
  private static Map<String, List<String>> modelsByPool(ModelResolver resolver) {
    Map<String, TreeSet<String>> byPool = new TreeMap<>();
    for (ServedModel m : resolver.servedModels()) {
      for (PoolTarget t : resolver.resolve(m.id()).pools()) {
        byPool.computeIfAbsent(t.pool(), p -> new TreeSet<>()).add(m.id());
      }
    }
    Map<String, List<String>> out = new TreeMap<>();
    byPool.forEach((pool, names) -> out.put(pool, List.copyOf(names)));
    return out;
  }
}
