package dev.pointsman.fleet.choice;

import java.util.List;
import java.util.Objects;

/** What the fleet tier does with one request. */
public sealed interface Choice {

  /** Why a cluster was chosen; a bounded metrics label. */
  enum Reason {
    /** Its hot prefixes hold the request's, within the SLO. */
    AFFINITY("affinity"),
    /** The cheapest cluster predicted comfortably within the SLO. */
    CHEAPEST("cheapest-within-slo"),
    /** None was comfortably within the SLO: the fastest of those still within it. */
    FASTEST_WITHIN_SLO("fastest-within-slo"),
    /** None was predicted within the SLO: the fastest (the SLO is broken anyway). */
    FASTEST_OVER_SLO("fastest-over-slo");

    private final String label;

    Reason(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /**
   * Route to {@code option}'s cluster; should it refuse the connection before the request reached
   * it, to {@code fallbacks} in order.
   *
   * @param fallbacks the next open clusters the same rule would take, best first, without the
   *     chosen one (none for sheddable traffic but spot and reserved ones)
   */
  record Chosen(Option option, Reason reason, List<Option> fallbacks) implements Choice {
    public Chosen {
      Objects.requireNonNull(option, "option");
      Objects.requireNonNull(reason, "reason");
      fallbacks = List.copyOf(fallbacks);
    }

    /** Chosen without fallbacks. */
    public Chosen(Option option, Reason reason) {
      this(option, reason, List.of());
    }
  }

  /**
   * No cluster can take it.
   *
   * @param sheddableOnly true when clusters could have taken it but only on-demand ones, which
   *     sheddable traffic never spills to (a 429, not a 503)
   */
  record NoCluster(boolean sheddableOnly) implements Choice {}
}
