package dev.pointsman.picker.scrape;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs one-shot tasks (timeout guards) for real but never runs periodic ones by itself: a test
 * fires them with {@link #tickAll()}, so scrape timing is in the test's hands.
 */
final class ManualPeriodicExecutor extends ScheduledThreadPoolExecutor {

  private final Map<ScheduledFuture<?>, Runnable> periodic = new ConcurrentHashMap<>();
  final Map<Runnable, Long> initialDelays = new ConcurrentHashMap<>();

  ManualPeriodicExecutor() {
    super(1);
  }

  @Override
  public ScheduledFuture<?> scheduleAtFixedRate(
      Runnable command, long initialDelay, long period, TimeUnit unit) {
    ScheduledFuture<?> handle = super.schedule(() -> {}, 365, TimeUnit.DAYS);
    periodic.put(handle, command);
    initialDelays.put(command, unit.toNanos(initialDelay));
    return handle;
  }

  /** Runs every periodic task that was not cancelled once, on the calling thread. */
  void tickAll() {
    periodic.forEach(
        (handle, command) -> {
          if (!handle.isCancelled()) {
            command.run();
          }
        });
  }

  long activePeriodic() {
    return periodic.keySet().stream().filter(h -> !h.isCancelled()).count();
  }
}
