package dev.pointsman.bench.extproc;

import com.sun.management.GarbageCollectionNotificationInfo;
import dev.pointsman.bench.scrape.ExpositionServer;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * This JVM's cost counters, read before and after a measured window: process CPU, CPU and
 * allocation of the gRPC server's executor threads ({@code grpc-0}, {@code grpc-1}, ..., named by
 * the runtime's pool), CPU and allocation of the stand-in model servers' threads (the JDK HTTP
 * server's, which answer the picker's scrapes: in a real fleet they are other machines), heap
 * allocated by every thread (terminated ones included), young collections and their pauses, and the
 * JIT's total compilation time (to tell when warm-up has settled). Thread-safe.
 */
final class JvmCounters {
  /** The gRPC server executor's threads; not Netty's event loops, not the client's executor. */
  static final Pattern EXECUTOR_THREAD = Pattern.compile("grpc-\\d+");

  /** The stand-in pods' threads: the {@link ExpositionServer}'s event loop. Never the picker's. */
  static final Pattern POD_THREAD = Pattern.compile(Pattern.quote(ExpositionServer.THREAD_NAME));

  /**
   * The picker's scraper: its event loop ({@code ScrapeHttp}) and its scheduler. Its CPU is per
   * second (every endpoint every interval), not per request.
   */
  static final Pattern SCRAPE_THREAD = Pattern.compile("pointsman-scrape(-\\d+)?");

  private final com.sun.management.OperatingSystemMXBean os =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private final com.sun.management.ThreadMXBean threads =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
  private final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
  private final AtomicLong maxYoungPauseMicros = new AtomicLong();

  JvmCounters() {
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (young(gc.getName()) && gc instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(
            (n, handback) -> {
              if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
                  n.getType())) {
                long micros =
                    GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData())
                            .getGcInfo()
                            .getDuration()
                        * 1000;
                maxYoungPauseMicros.accumulateAndGet(micros, Math::max);
              }
            },
            null,
            null);
      }
    }
  }

  /** Counters at one instant. */
  record Snapshot(
      long processCpuNanos,
      long executorCpuNanos,
      long allocatedBytes,
      long executorAllocatedBytes,
      long podsCpuNanos,
      long podsAllocatedBytes,
      long scrapeCpuNanos,
      long youngGcs,
      long youngGcMillis,
      long compileMillis) {}

  Snapshot read() {
    long executorCpu = 0;
    long executorAlloc = 0;
    long podsCpu = 0;
    long podsAlloc = 0;
    long scrapeCpu = 0;
    for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info == null) {
        continue;
      }
      if (EXECUTOR_THREAD.matcher(info.getThreadName()).matches()) {
        executorCpu += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
        executorAlloc += Math.max(0, threads.getThreadAllocatedBytes(info.getThreadId()));
      } else if (POD_THREAD.matcher(info.getThreadName()).matches()) {
        podsCpu += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
        podsAlloc += Math.max(0, threads.getThreadAllocatedBytes(info.getThreadId()));
      } else if (SCRAPE_THREAD.matcher(info.getThreadName()).matches()) {
        scrapeCpu += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
      }
    }
    long gcs = 0;
    long gcMillis = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (young(gc.getName())) {
        gcs += gc.getCollectionCount();
        gcMillis += gc.getCollectionTime();
      }
    }
    return new Snapshot(
        os.getProcessCpuTime(),
        executorCpu,
        threads.getTotalThreadAllocatedBytes(),
        executorAlloc,
        podsCpu,
        podsAlloc,
        scrapeCpu,
        gcs,
        gcMillis,
        compileMillis());
  }

  long compileMillis() {
    return jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
  }

  /** Forgets the longest young pause seen so far. */
  void resetMaxPause() {
    maxYoungPauseMicros.set(0);
  }

  /** The longest young pause since {@link #resetMaxPause}, in milliseconds. */
  double maxYoungPauseMillis() {
    return maxYoungPauseMicros.get() / 1000.0;
  }

  /** G1's, Parallel's, Serial's and ZGC's young (minor) collectors by their MXBean names. */
  static boolean young(String collector) {
    return collector.contains("Young")
        || collector.contains("Scavenge")
        || collector.equals("Copy")
        || collector.contains("ParNew")
        || collector.contains("Minor");
  }
}
