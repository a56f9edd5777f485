package dev.pointsman.picker.scheduling;

import java.util.List;
import java.util.Objects;

/**
 * A complete scheduling policy: filters, weighted scorers, the picker, how many fallbacks to
 * return, and when the pool counts as saturated. Immutable; swapped whole when an operator changes
 * it.
 */
public record SchedulingPolicy(
    List<Filter> filters,
    List<WeightedScorer> scorers,
    Picker picker,
    int fallbacks,
    Saturation saturation) {
  public SchedulingPolicy {
    filters = List.copyOf(filters);
    scorers = List.copyOf(scorers);
    Objects.requireNonNull(picker, "picker");
    Objects.requireNonNull(saturation, "saturation");
    if (fallbacks < 0 || fallbacks > 8) {
      throw new IllegalArgumentException("fallbacks: " + fallbacks + " (expected 0..8)");
    }
  }
}
