package dev.pointsman.picker.scheduling;

import java.util.Objects;

/** A scorer and its weight in the policy's sum. */
public record WeightedScorer(Scorer scorer, double weight) {
  public WeightedScorer {
    Objects.requireNonNull(scorer, "scorer");
    if (!(weight >= 0) || Double.isInfinite(weight)) {
      throw new IllegalArgumentException(
          "weights." + scorer.type() + ": " + weight + " (expected a finite number >= 0)");
    }
  }
}
