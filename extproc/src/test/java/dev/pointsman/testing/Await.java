package dev.pointsman.testing;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waits for a condition that another thread makes true; fails after a generous bound. */
public final class Await {
  private static final Duration LIMIT = Duration.ofSeconds(15);

  private Await() {}

  public static void until(String what, BooleanSupplier condition) {
    until(what, LIMIT, condition);
  }

  /**
   * Waits up to {@code limit}: for conditions that wait on another system's own timers (a group
   * membership protocol's failure detection and merge rounds), which a loaded machine stretches.
   */
  public static void until(String what, Duration limit, BooleanSupplier condition) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting until " + what);
      }
      LockSupport.parkNanos(1_000_000L);
    }
  }
}
