package dev.pointsman.bench.routing.scenario;

/** Validation helpers: every message names the field and what was expected. */
final class Check {
  private Check() {}

  static double positive(String field, Double value, double dflt) {
    double v = value == null ? dflt : value;
    if (!(v > 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(field + ": " + v + " (expected > 0)");
    }
    return v;
  }

  static double nonNegative(String field, Double value, double dflt) {
    double v = value == null ? dflt : value;
    if (!(v >= 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(field + ": " + v + " (expected >= 0)");
    }
    return v;
  }

  static double fraction(String field, Double value, double dflt) {
    double v = value == null ? dflt : value;
    if (!(v >= 0 && v <= 1)) {
      throw new IllegalArgumentException(field + ": " + v + " (expected in [0, 1])");
    }
    return v;
  }

  static int atLeast(String field, Integer value, int dflt, int min) {
    int v = value == null ? dflt : value;
    if (v < min) {
      throw new IllegalArgumentException(field + ": " + v + " (expected >= " + min + ")");
    }
    return v;
  }

  static <T> T required(String field, T value) {
    if (value == null) {
      throw new IllegalArgumentException(field + ": missing (expected a value)");
    }
    return value;
  }
}
