package dev.pointsman.picker.scheduling;

import java.util.Map;
import java.util.Objects;

/**
 * A plugin in a policy's configuration: its type name, its weight (scorers only) and parameters.
 *
 * @param type kebab-case plugin type, e.g. {@code queue-scorer}
 * @param weight scorer weight (ignored for filters and pickers)
 * @param params plugin parameters
 */
public record PluginSpec(String type, Double weight, Map<String, Object> params) {
  public PluginSpec {
    Objects.requireNonNull(type, "type");
    params = params == null ? Map.of() : Map.copyOf(params);
  }

  public static PluginSpec of(String type, double weight) {
    return new PluginSpec(type, weight, Map.of());
  }

  public static PluginSpec of(String type) {
    return new PluginSpec(type, null, Map.of());
  }

  /** A numeric parameter, or {@code dflt} when absent. */
  public double number(String name, double dflt, String path) {
    Object v = params.get(name);
    if (v == null) {
      return dflt;
    }
    if (v instanceof Number n) {
      return n.doubleValue();
    }
    try {
      return Double.parseDouble(v.toString());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          path + ".params." + name + ": '" + v + "' (expected a number)", e);
    }
  }
}
