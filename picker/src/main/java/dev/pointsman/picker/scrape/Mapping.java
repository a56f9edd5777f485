package dev.pointsman.picker.scrape;

import dev.pointsman.picker.scheduling.EndpointMetrics;
import java.util.Objects;
import java.util.Set;

/**
 * The result of mapping one scrape to {@link EndpointMetrics}.
 *
 * @param metrics the metrics; signals in {@code missing} hold their unknown value ({@code -1},
 *     {@code NaN}, or {@code 0} for request counts)
 * @param missing expected signals the exposition lacked or gave as invalid (negative, NaN)
 */
public record Mapping(EndpointMetrics metrics, Set<Signal> missing) {
  public Mapping {
    Objects.requireNonNull(metrics, "metrics");
    missing = Set.copyOf(missing);
  }

  /**
   * Whether the exposition is unusable: none of waiting, running and KV usage could be read — an
   * empty body, a page that is not an exposition, or the wrong engine configured.
   */
  public boolean unusable() {
    return missing.contains(Signal.WAITING_REQUESTS)
        && missing.contains(Signal.RUNNING_REQUESTS)
        && missing.contains(Signal.KV_CACHE_USAGE);
  }
}
