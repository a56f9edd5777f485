package dev.pointsman.picker.replication;

import dev.pointsman.picker.config.ReplicationSection;
import dev.pointsman.picker.scheduling.Decision;
import java.util.ArrayDeque;
import java.util.concurrent.locks.LockSupport;

/**
 * A small load harness, not a test: two replicas on loopback with the default 5 ms batches (or the
 * optional fourth argument's); replica 0 routes {@code RATE} requests a second for {@code SECONDS},
 * each with a prompt of {@code CHARS} characters, one TTFT and one TPOT observation, held about
 * half a second; it prints what replica 0 sent, and the CPU time that every thread but the one
 * routing spent meanwhile (both replicas' batch threads and JGroups' own: the whole cost of
 * sharing, sender and receiver). Real time, so it paces itself; run it by hand
 * (docs/operator-guide.md):
 *
 * <pre>
 * ./mvnw -q -o -pl picker test-compile exec:java -Dexec.classpathScope=test \
 *   -Dexec.mainClass=dev.pointsman.picker.replication.TrafficHarness -Dexec.args="100 10 4000 [batchMillis]"
 * </pre>
 */
public final class TrafficHarness {
  private TrafficHarness() {}

  public static void main(String[] args) {
    int rate = Integer.parseInt(args[0]);
    int seconds = Integer.parseInt(args[1]);
    int chars = Integer.parseInt(args[2]);
    int batchMillis =
        args.length > 3 ? Integer.parseInt(args[3]) : ReplicationSection.DEFAULTS.batchMillis();
    try (Cluster c = new Cluster(2, batchMillis)) {
      Cluster.Replica a = c.start(0);
      Cluster.Replica b = c.start(1);
      long joinBy = System.nanoTime() + 30_000_000_000L;
      while ((a.members() < 2 || b.members() < 2) && System.nanoTime() < joinBy) {
        LockSupport.parkNanos(10_000_000L);
      }
      String prompt = "x".repeat(chars);
      ArrayDeque<Decision.Picked> held = new ArrayDeque<>();
      ReplicationStats s = a.replicator().stats();
      long bytes0 = s.bytesSent();
      long messages0 = s.sent();
      java.util.Map<Long, Long> cpu0 = otherThreadsCpu();
      long start = System.nanoTime();
      long period = 1_000_000_000L / rate;
      int n = rate * seconds;
      for (int i = 0; i < n; i++) {
        long due = start + i * period;
        while (System.nanoTime() < due) {
          LockSupport.parkNanos(Math.max(1_000L, due - System.nanoTime()));
        }
        Decision.Picked p = a.pick(i + ":" + prompt);
        a.scheduler().observeTtft(p, 0.2);
        a.scheduler().observeTpot(p, 0.02);
        held.add(p);
        if (held.size() > rate / 2) {
          held.poll().ticket().release();
        }
      }
      double elapsed = (System.nanoTime() - start) / 1e9;
      java.util.Map<Long, Long> cpu1 = otherThreadsCpu();
      long cpuNanos = 0;
      for (var e : cpu1.entrySet()) {
        cpuNanos += e.getValue() - cpu0.getOrDefault(e.getKey(), 0L);
      }
      long bytes = s.bytesSent() - bytes0;
      long messages = s.sent() - messages0;
      System.out.printf(
          "%d req/s for %.1f s, prompts of %d chars (%d blocks): %.0f B/s, %.1f messages/s,"
              + " %.0f B per request; dropped %d; sharing CPU (both replicas) %.1f ms/s,"
              + " %.1f µs per request%n",
          rate,
          elapsed,
          chars,
          Cluster.blocks(prompt),
          bytes / elapsed,
          messages / elapsed,
          (double) bytes / n,
          s.dropped() + s.oversize(),
          cpuNanos / 1e6 / elapsed,
          cpuNanos / 1e3 / n);
    }
  }

  /** CPU time per live thread but this one, by thread id. */
  private static java.util.Map<Long, Long> otherThreadsCpu() {
    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
    java.util.Map<Long, Long> out = new java.util.HashMap<>();
    long self = Thread.currentThread().threadId();
    for (long id : mx.getAllThreadIds()) {
      long t = mx.getThreadCpuTime(id);
      if (id != self && t > 0) {
        out.put(id, t);
      }
    }
    return out;
  }
}
