package dev.pointsman.fleet.choice;

import java.util.Arrays;
import java.util.Locale;

/** A cluster's cost tier: what its GPUs are bought as. */
public enum Tier {
  SPOT("spot"),
  RESERVED("reserved"),
  ON_DEMAND("on-demand");

  private final String label;

  Tier(String label) {
    this.label = label;
  }

  /** The name in config files and metrics. */
  public String label() {
    return label;
  }

  /**
   * The tier named {@code label} ({@code spot}, {@code reserved}, {@code on-demand}).
   *
   * @throws IllegalArgumentException naming the value and the expected ones
   */
  public static Tier of(String label) {
    String l = label == null ? "" : label.trim().toLowerCase(Locale.ROOT);
    for (Tier t : values()) {
      if (t.label.equals(l)) {
        return t;
      }
    }
    throw new IllegalArgumentException(
        "tier: '"
            + label
            + "' (expected one of "
            + Arrays.stream(values()).map(Tier::label).toList()
            + ")");
  }
}
