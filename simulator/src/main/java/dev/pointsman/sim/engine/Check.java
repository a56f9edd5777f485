package dev.pointsman.sim.engine;

/** Field validation for the profile records; messages name the field and what was expected. */
final class Check {
  private Check() {}

  static void name(String field, String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(field + ": '" + value + "' (expected a non-blank name)");
    }
  }

  static void positive(String field, double value) {
    if (!(value > 0)) {
      throw new IllegalArgumentException(field + ": " + value + " (expected > 0)");
    }
  }

  static void nonNegative(String field, double value) {
    if (!(value >= 0)) {
      throw new IllegalArgumentException(field + ": " + value + " (expected >= 0)");
    }
  }

  static void fraction(String field, double value) {
    if (!(value > 0 && value <= 1)) {
      throw new IllegalArgumentException(field + ": " + value + " (expected in (0, 1])");
    }
  }
}
