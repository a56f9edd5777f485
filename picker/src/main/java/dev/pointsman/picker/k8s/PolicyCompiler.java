package dev.pointsman.picker.k8s;

import dev.pointsman.picker.k8s.api.FilterSpec;
import dev.pointsman.picker.k8s.api.InferencePool;
import dev.pointsman.picker.k8s.api.PickerPolicySpec;
import dev.pointsman.picker.k8s.api.PickerSpec;
import dev.pointsman.picker.k8s.api.SaturationSpec;
import dev.pointsman.picker.k8s.api.ScorerSpec;
import dev.pointsman.picker.k8s.api.TargetRef;
import dev.pointsman.picker.scheduling.PluginSpec;
import dev.pointsman.picker.scheduling.Plugins;
import dev.pointsman.picker.scheduling.PolicyConfig;
import dev.pointsman.picker.scheduling.Saturation;
import dev.pointsman.picker.scheduling.SchedulingPolicy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A PickerPolicy spec to a {@link SchedulingPolicy}, checking everything the CRD's schema and CEL
 * rules check (an API server that skipped them, or an older CRD, must not break the picker) and
 * everything the scheduling library checks. Error messages name the field: {@code
 * spec.scorers[2].type: 'foo' (expected one of [...])}. Pure.
 */
final class PolicyCompiler {
  static final String WEIGHTED_RANDOM = "weighted-random-picker";
  static final double MAX_WEIGHT = 100;

  private PolicyCompiler() {}

  /**
   * @return the compiled policy
   * @throws IllegalArgumentException naming the bad field
   */
  static SchedulingPolicy compile(PickerPolicySpec spec) {
    if (spec == null) {
      throw new IllegalArgumentException("spec: absent (expected an object)");
    }
    checkTarget(spec.targetRef());
    PolicyConfig config =
        new PolicyConfig(
            filters(spec.filters()),
            scorers(spec.scorers()),
            picker(spec.picker()),
            spec.fallbacks(),
            saturation(spec.saturation()));
    try {
      return Plugins.build(config);
    } catch (IllegalArgumentException e) {
      // the scheduling library calls scorer parameters "params"; the CRD calls them "parameters"
      throw new IllegalArgumentException(
          "spec." + e.getMessage().replace(".params.", ".parameters."), e);
    }
  }

  private static void checkTarget(TargetRef ref) {
    if (ref == null) {
      return;
    }
    if (ref.name() == null || ref.name().isBlank()) {
      throw new IllegalArgumentException(
          "spec.targetRef.name: '" + ref.name() + "' (expected an InferencePool name)");
    }
    if (ref.kind() != null && !ref.kind().equals("InferencePool")) {
      throw new IllegalArgumentException(
          "spec.targetRef.kind: '" + ref.kind() + "' (expected InferencePool)");
    }
    if (ref.group() != null && !ref.group().equals(InferencePool.GROUP)) {
      throw new IllegalArgumentException(
          "spec.targetRef.group: '" + ref.group() + "' (expected " + InferencePool.GROUP + ")");
    }
  }

  private static List<PluginSpec> filters(List<FilterSpec> filters) {
    if (filters == null) {
      return null;
    }
    List<PluginSpec> out = new ArrayList<>();
    for (int i = 0; i < filters.size(); i++) {
      FilterSpec f = filters.get(i);
      String type = required(f == null ? null : f.type(), "spec.filters[" + i + "].type");
      Map<String, Object> params =
          f.parameters() == null ? Map.of() : new HashMap<>(f.parameters());
      out.add(new PluginSpec(type, null, params));
    }
    return out;
  }

  private static List<PluginSpec> scorers(List<ScorerSpec> scorers) {
    if (scorers == null) {
      return null;
    }
    List<PluginSpec> out = new ArrayList<>();
    Set<String> types = new HashSet<>();
    boolean anyPositive = false;
    for (int i = 0; i < scorers.size(); i++) {
      String path = "spec.scorers[" + i + "]";
      ScorerSpec s = scorers.get(i);
      String type = required(s == null ? null : s.type(), path + ".type");
      if (!types.add(type)) {
        throw new IllegalArgumentException(
            path + ".type: '" + type + "' (listed twice; expected each scorer once)");
      }
      double weight = s.weight() == null ? 1.0 : s.weight();
      if (!(weight >= 0 && weight <= MAX_WEIGHT)) {
        throw new IllegalArgumentException(
            path + ".weight: " + s.weight() + " (expected 0.." + (int) MAX_WEIGHT + ")");
      }
      anyPositive |= weight > 0;
      Map<String, Object> params =
          s.parameters() == null ? Map.of() : new HashMap<>(s.parameters());
      out.add(new PluginSpec(type, weight, params));
    }
    if (!anyPositive) {
      throw new IllegalArgumentException(
          "spec.scorers: no scorer has weight > 0 (expected at least one)");
    }
    return out;
  }

  private static PluginSpec picker(PickerSpec picker) {
    if (picker == null) {
      return null;
    }
    String type = picker.type() == null ? "max-score-picker" : picker.type();
    Map<String, Object> params = new HashMap<>();
    if (picker.topK() != null) {
      onlyWeightedRandom(type, "topK", picker.topK());
      if (picker.topK() < 1) {
        throw new IllegalArgumentException(
            "spec.picker.topK: " + picker.topK() + " (expected >= 1)");
      }
      params.put("topK", picker.topK());
    }
    if (picker.temperature() != null) {
      onlyWeightedRandom(type, "temperature", picker.temperature());
      params.put("temperature", picker.temperature());
    }
    return new PluginSpec(type, null, params);
  }

  private static void onlyWeightedRandom(String type, String field, Object value) {
    if (!type.equals(WEIGHTED_RANDOM)) {
      throw new IllegalArgumentException(
          "spec.picker."
              + field
              + ": "
              + value
              + " (expected only with type "
              + WEIGHTED_RANDOM
              + ", not "
              + type
              + ")");
    }
  }

  private static Saturation saturation(SaturationSpec s) {
    if (s == null) {
      return null;
    }
    Saturation d = Saturation.DEFAULT;
    try {
      return new Saturation(
          s.queueThreshold() == null ? d.queueThreshold() : s.queueThreshold(),
          s.kvThreshold() == null ? d.kvThreshold() : s.kvThreshold(),
          s.retryAfterSeconds() == null ? d.retryAfterSeconds() : s.retryAfterSeconds());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("spec." + e.getMessage(), e);
    }
  }

  private static String required(String value, String path) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(path + ": '" + value + "' (expected a plugin type)");
    }
    return value;
  }
}
