package dev.pointsman.picker.scheduling;

import dev.pointsman.picker.scheduling.plugins.KvCacheUtilizationScorer;
import dev.pointsman.picker.scheduling.plugins.LoraAffinityScorer;
import dev.pointsman.picker.scheduling.plugins.LoraCapacityFilter;
import dev.pointsman.picker.scheduling.plugins.MaxScorePicker;
import dev.pointsman.picker.scheduling.plugins.PredictedLatencyScorer;
import dev.pointsman.picker.scheduling.plugins.PrefixCacheScorer;
import dev.pointsman.picker.scheduling.plugins.QueueScorer;
import dev.pointsman.picker.scheduling.plugins.RunningRequestsScorer;
import dev.pointsman.picker.scheduling.plugins.TpotSloFilter;
import dev.pointsman.picker.scheduling.plugins.WeightedRandomPicker;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** The plugin registry: builds filters, scorers and pickers from their type names. */
public final class Plugins {
  /** Every scorer type, in documentation order. */
  public static final Set<String> SCORERS =
      Set.of(
          QueueScorer.TYPE,
          KvCacheUtilizationScorer.TYPE,
          LoraAffinityScorer.TYPE,
          PrefixCacheScorer.TYPE,
          PredictedLatencyScorer.TYPE,
          RunningRequestsScorer.TYPE);

  private Plugins() {}

  /** Builds and validates a policy; messages name the bad field, e.g. {@code scorers[2].type}. */
  public static SchedulingPolicy build(PolicyConfig config) {
    List<Filter> filters = new ArrayList<>();
    List<PluginSpec> fs = config.filtersOrDefault();
    for (int i = 0; i < fs.size(); i++) {
      filters.add(filter(fs.get(i), "filters[" + i + "]"));
    }
    List<WeightedScorer> scorers = new ArrayList<>();
    List<PluginSpec> ss = config.scorersOrDefault();
    for (int i = 0; i < ss.size(); i++) {
      PluginSpec spec = ss.get(i);
      String path = "scorers[" + i + "]";
      double weight = spec.weight() == null ? 1.0 : spec.weight();
      if (!(weight >= 0) || Double.isInfinite(weight)) {
        throw new IllegalArgumentException(path + ".weight: " + weight + " (expected >= 0)");
      }
      scorers.add(new WeightedScorer(scorer(spec, path), weight));
    }
    return new SchedulingPolicy(
        filters,
        scorers,
        picker(config.pickerOrDefault(), "picker"),
        config.fallbacksOrDefault(),
        config.saturationOrDefault());
  }

  public static Scorer scorer(PluginSpec spec, String path) {
    return switch (spec.type()) {
      case QueueScorer.TYPE -> new QueueScorer();
      case KvCacheUtilizationScorer.TYPE -> new KvCacheUtilizationScorer();
      case LoraAffinityScorer.TYPE -> new LoraAffinityScorer();
      case PrefixCacheScorer.TYPE -> new PrefixCacheScorer();
      case RunningRequestsScorer.TYPE -> new RunningRequestsScorer();
      case PredictedLatencyScorer.TYPE -> predictedLatency(spec, path);
      default ->
          throw new IllegalArgumentException(
              path + ".type: '" + spec.type() + "' (expected one of " + sorted(SCORERS) + ")");
    };
  }

  private static Scorer predictedLatency(PluginSpec spec, String path) {
    double mean = spec.number("meanPromptTokens", 256, path);
    double lora = spec.number("loraLoadSeconds", 0.5, path);
    double slotWait =
        spec.number("loraSlotWaitSeconds", PredictedLatencyScorer.DEFAULT_SLOT_WAIT_SECONDS, path);
    double cacheValue = spec.number("cacheValue", PredictedLatencyScorer.DEFAULT_CACHE_VALUE, path);
    double privateCacheValue =
        spec.number("privateCacheValue", PredictedLatencyScorer.DEFAULT_PRIVATE_CACHE_VALUE, path);
    double decodeValue =
        spec.number("decodeValue", PredictedLatencyScorer.DEFAULT_DECODE_VALUE, path);
    double kvAdmission = spec.number("kvAdmission", 1, path);
    if (kvAdmission != 0 && kvAdmission != 1) {
      throw new IllegalArgumentException(
          path + ".params.kvAdmission: " + kvAdmission + " (expected 1 = on or 0 = off)");
    }
    double kvReserveSteps =
        spec.number("kvReserveSteps", PredictedLatencyScorer.DEFAULT_KV_RESERVE_STEPS, path);
    double maxRunning =
        spec.number(
            "maxRunningRequests", PredictedLatencyScorer.DEFAULT_MAX_RUNNING_REQUESTS, path);
    if (maxRunning != Math.rint(maxRunning) || maxRunning < 0 || maxRunning > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          path
              + ".params.maxRunningRequests: "
              + maxRunning
              + " (expected a whole number >= 0; 0 = no cap)");
    }
    try {
      return new PredictedLatencyScorer(
          mean,
          lora,
          slotWait,
          cacheValue,
          privateCacheValue,
          decodeValue,
          kvAdmission == 1,
          kvReserveSteps,
          (int) maxRunning);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(path + ".params." + e.getMessage(), e);
    }
  }

  private static Filter tpotSlo(PluginSpec spec, String path) {
    double objectiveMs = spec.number("objectiveMs", Double.NaN, path);
    try {
      return new TpotSloFilter(objectiveMs / 1000);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(path + ".params." + e.getMessage(), e);
    }
  }

  /** Every filter type, in documentation order. */
  public static final Set<String> FILTERS = Set.of(LoraCapacityFilter.TYPE, TpotSloFilter.TYPE);

  public static Filter filter(PluginSpec spec, String path) {
    return switch (spec.type()) {
      case LoraCapacityFilter.TYPE -> new LoraCapacityFilter();
      case TpotSloFilter.TYPE -> tpotSlo(spec, path);
      default ->
          throw new IllegalArgumentException(
              path + ".type: '" + spec.type() + "' (expected one of " + sorted(FILTERS) + ")");
    };
  }

  public static Picker picker(PluginSpec spec, String path) {
    return switch (spec.type()) {
      case MaxScorePicker.TYPE -> new MaxScorePicker();
      case WeightedRandomPicker.TYPE ->
          new WeightedRandomPicker(
              (int) spec.number("topK", 3, path), spec.number("temperature", 0.5, path));
      default ->
          throw new IllegalArgumentException(
              path
                  + ".type: '"
                  + spec.type()
                  + "' (expected one of ["
                  + MaxScorePicker.TYPE
                  + ", "
                  + WeightedRandomPicker.TYPE
                  + "])");
    };
  }

  private static List<String> sorted(Set<String> s) {
    return s.stream().sorted().toList();
  }
}
