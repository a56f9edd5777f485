package dev.pointsman.fleet.health;

/**
 * When a cluster is drained and how it comes back.
 *
 * @param staleAfterMillis a cluster whose last summary is older than this is drained
 * @param summaryFailures consecutive failed summary reads that drain it sooner (its picker is gone
 *     or refuses the fleet)
 * @param errorRate the share of failed requests (5xx, or no response) in the current window that
 *     drains it, in (0, 1]
 * @param minRequests requests the window must hold before its error rate counts
 * @param windowMillis the error window (tumbling)
 * @param ejectMillis how long a cluster drained for errors stays drained before it ramps up again
 * @param rampMillis how long a cluster back from a drain takes to get its full share again,
 *     linearly (0: at once)
 */
public record Failover(
    long staleAfterMillis,
    int summaryFailures,
    double errorRate,
    int minRequests,
    long windowMillis,
    long ejectMillis,
    long rampMillis) {

  public static final Failover DEFAULTS = new Failover(3000, 3, 0.5, 10, 10_000, 5000, 10_000);

  public Failover {
    positive("staleAfterMillis", staleAfterMillis);
    positive("summaryFailures", summaryFailures);
    if (!(errorRate > 0 && errorRate <= 1)) {
      throw new IllegalArgumentException("errorRate: " + errorRate + " (expected in (0, 1])");
    }
    positive("minRequests", minRequests);
    positive("windowMillis", windowMillis);
    positive("ejectMillis", ejectMillis);
    if (rampMillis < 0) {
      throw new IllegalArgumentException("rampMillis: " + rampMillis + " (expected >= 0)");
    }
  }

  private static void positive(String name, long value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + ": " + value + " (expected >= 1)");
    }
  }
}
