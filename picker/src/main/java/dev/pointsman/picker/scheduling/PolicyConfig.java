package dev.pointsman.picker.scheduling;

import java.util.List;

/**
 * A scheduling policy as written by an operator (config file or CRD): which filters and scorers
 * with which weights, which picker, fallbacks, saturation. {@link Plugins#build} turns it into a
 * {@link SchedulingPolicy}, validating every field.
 *
 * @param filters filters in order (null: the defaults)
 * @param scorers weighted scorers (null: the defaults)
 * @param picker the picker (null: the default)
 * @param fallbacks fallback endpoints to return after the primary (null: 0)
 * @param saturation saturation thresholds (null: defaults)
 */
public record PolicyConfig(
    List<PluginSpec> filters,
    List<PluginSpec> scorers,
    PluginSpec picker,
    Integer fallbacks,
    Saturation saturation) {

  /**
   * Pointsman's production default. Queue depth and the running batch enter through the predicted
   * latency (with the picker's exact count of prefill it has sent and not yet seen a first token
   * for), so the separate queue and running scorers are not in the default blend. KV-cache headroom
   * weighs as much as the predicted latency because that prediction sees a full cache only once it
   * blocks admission (since 2026-12-06), not the preemptions a nearly full one will cause: long
   * prompts that stick to the pods caching them fill those pods' KV caches. The prefix scorer
   * weighs 2 (1 until 2026-12-04): conversations and shared documents stay where they are cached.
   * Moving a conversation's own history (a prefix no other request in flight shares) is priced at
   * the predicted-latency scorer's {@code privateCacheValue}, 8 (since 2026-12-06). Its prediction
   * counts the wait for a sequence slot at vLLM's default cap, {@code maxRunningRequests} 256, and
   * the context every running sequence reads (since 2026-12-06). The weights were chosen by the
   * routing benchmark on its training set (docs/plugins/README.md, docs/benchmarks.md).
   */
  public static PolicyConfig defaults() {
    return new PolicyConfig(null, null, null, null, null);
  }

  public List<PluginSpec> filtersOrDefault() {
    return filters != null
        ? filters
        : List.of(PluginSpec.of("lora-capacity-filter"), PluginSpec.of("tpot-slo-filter"));
  }

  public List<PluginSpec> scorersOrDefault() {
    return scorers != null
        ? scorers
        : List.of(
            PluginSpec.of("predicted-latency-scorer", 4),
            PluginSpec.of("lora-affinity-scorer", 2),
            PluginSpec.of("prefix-cache-scorer", 2),
            PluginSpec.of("kv-cache-utilization-scorer", 4));
  }

  public PluginSpec pickerOrDefault() {
    return picker != null ? picker : PluginSpec.of("max-score-picker");
  }

  public int fallbacksOrDefault() {
    return fallbacks != null ? fallbacks : 0;
  }

  public Saturation saturationOrDefault() {
    return saturation != null ? saturation : Saturation.DEFAULT;
  }
}
