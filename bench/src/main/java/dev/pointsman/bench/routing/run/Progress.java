package dev.pointsman.bench.routing.run;

import java.io.PrintStream;
import java.util.function.LongSupplier;

/**
 * A one-line progress bar, redrawn with a carriage return; silent when disabled (not a terminal, or
 * tests). The clock only feeds the elapsed-time display. Thread-safe.
 */
public final class Progress {
  private static final int WIDTH = 30;

  private final PrintStream out;
  private final boolean enabled;
  private final LongSupplier nanoClock;
  private long startNanos;
  private int total;
  private int done;

  public Progress(PrintStream out, boolean enabled, LongSupplier nanoClock) {
    this.out = out;
    this.enabled = enabled;
    this.nanoClock = nanoClock;
  }

  public static Progress disabled() {
    return new Progress(System.err, false, () -> 0L);
  }

  /** Enabled when stderr is an interactive terminal. */
  public static Progress forTerminal() {
    return new Progress(System.err, isTerminal(), System::nanoTime);
  }

  private static boolean isTerminal() {
    java.io.Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
    } catch (ReflectiveOperationException e) {
      return true;
    }
  }

  public synchronized void addWork(int units) {
    if (total == 0) {
      startNanos = nanoClock.getAsLong();
    }
    total += units;
  }

  public synchronized void step(String label) {
    done++;
    if (!enabled) {
      return;
    }
    int filled = total == 0 ? WIDTH : (int) ((long) WIDTH * done / total);
    long s = (nanoClock.getAsLong() - startNanos) / 1_000_000_000L;
    String bar = "=".repeat(filled) + " ".repeat(WIDTH - filled);
    String line =
        String.format("\r[%s] %d/%d  %dm%02ds  %-48s", bar, done, total, s / 60, s % 60, label);
    out.print(line);
    out.flush();
  }

  public synchronized void finish() {
    if (enabled && total > 0) {
      out.println();
    }
  }
}
