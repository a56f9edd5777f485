package dev.pointsman.testing;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

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
    until(what, limit, condition, () -> "");
  }

  /**
   * Waits as {@link #until(String, Duration, BooleanSupplier)}; a timeout's message ends with what
   * {@code state} says then, so that a failure on a loaded build says where the system stood.
   */
  public static void until(
      String what, Duration limit, BooleanSupplier condition, Supplier<String> state) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        String now = state.get();
        throw new AssertionError(
            "timed out waiting until " + what + (now.isEmpty() ? "" : "; state: " + now));
      }
      LockSupport.parkNanos(1_000_000L);
    }
  }
}
