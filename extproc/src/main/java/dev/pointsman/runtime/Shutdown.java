package dev.pointsman.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes resources in reverse order of registration, once, each bounded by a timeout: a close that
 * throws or hangs is logged once and the next one still runs. {@link #installHook()} runs it from a
 * JVM shutdown hook; {@link #run()} runs it directly (the hook then does nothing). Thread-safe.
 */
public final class Shutdown implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(Shutdown.class);

  private final List<AutoCloseable> closeables;
  private final Duration timeoutEach;
  private final AtomicBoolean ran = new AtomicBoolean();

  /**
   * @param closeables in start order (closed last to first)
   * @param timeoutEach how long to wait for each close before moving on
   */
  public Shutdown(List<AutoCloseable> closeables, Duration timeoutEach) {
    this.closeables = List.copyOf(closeables);
    if (timeoutEach == null || timeoutEach.isNegative() || timeoutEach.isZero()) {
      throw new IllegalArgumentException(
          "shutdown timeout: " + timeoutEach + " (expected a duration > 0)");
    }
    this.timeoutEach = timeoutEach;
  }

  /** Registers {@link #run()} as a JVM shutdown hook. */
  public Shutdown installHook() {
    Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("shutdown").unstarted(this));
    return this;
  }

  /** Closes everything in reverse order; only the first call does anything. */
  @Override
  public void run() {
    if (!ran.compareAndSet(false, true)) {
      return;
    }
    var reversed = new ArrayList<>(closeables);
    Collections.reverse(reversed);
    reversed.forEach(this::closeBounded);
  }

  private void closeBounded(AutoCloseable closeable) {
    Thread closer =
        Thread.ofPlatform()
            .name("shutdown-close")
            .daemon(true)
            .start(() -> closeQuietly(closeable));
    try {
      if (!closer.join(timeoutEach)) {
        LOG.warn("shutdown: {} did not close within {}; moving on", closeable, timeoutEach);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      LOG.warn("shutdown: interrupted while closing {}", closeable);
    }
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      LOG.warn("shutdown: closing {} failed: {}", closeable, e.toString());
    }
  }
}
