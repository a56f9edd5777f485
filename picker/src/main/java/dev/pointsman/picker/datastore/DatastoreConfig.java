package dev.pointsman.picker.datastore;

import java.time.Duration;
import java.util.Objects;

/**
 * When an endpoint counts as available or stale.
 *
 * @param failureThreshold an endpoint whose last {@code failureThreshold} scrapes all failed is
 *     unavailable
 * @param staleAfter metrics older than this are reported as stale (still used)
 * @param unavailableAfter an endpoint without a successful scrape for longer is unavailable
 */
public record DatastoreConfig(
    int failureThreshold, Duration staleAfter, Duration unavailableAfter) {

  /** Threshold 3, stale after 250 ms, unavailable after 1 s. */
  public static final DatastoreConfig DEFAULT =
      new DatastoreConfig(3, Duration.ofMillis(250), Duration.ofSeconds(1));

  public DatastoreConfig {
    Objects.requireNonNull(staleAfter, "staleAfter");
    Objects.requireNonNull(unavailableAfter, "unavailableAfter");
    if (failureThreshold < 1) {
      throw new IllegalArgumentException(
          "datastore.failureThreshold: " + failureThreshold + " (expected >= 1)");
    }
    if (staleAfter.isNegative() || staleAfter.isZero()) {
      throw new IllegalArgumentException("datastore.staleAfter: " + staleAfter + " (expected > 0)");
    }
    if (unavailableAfter.compareTo(staleAfter) < 0) {
      throw new IllegalArgumentException(
          "datastore.unavailableAfter: "
              + unavailableAfter
              + " (expected >= staleAfter "
              + staleAfter
              + ")");
    }
  }
}
