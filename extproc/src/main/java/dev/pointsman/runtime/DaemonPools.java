package dev.pointsman.runtime;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

/** Fixed pools of named daemon platform threads for the servers of this package. */
final class DaemonPools {
  private DaemonPools() {}

  /** {@code threads} daemon threads named {@code prefix-0}, {@code prefix-1}, ... */
  static ExecutorService fixed(String prefix, int threads) {
    ThreadFactory factory = Thread.ofPlatform().name(prefix + "-", 0).daemon(true).factory();
    return Executors.newFixedThreadPool(threads, factory);
  }

  /** One thread per available processor, at least two. */
  static int perCore() {
    return Math.max(2, Runtime.getRuntime().availableProcessors());
  }
}
