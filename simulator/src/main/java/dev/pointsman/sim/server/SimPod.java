package dev.pointsman.sim.server;

import dev.pointsman.sim.engine.EngineConfig;
import dev.pointsman.sim.engine.ShareGptLengths;
import java.time.InstantSource;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The shared state of one simulated pod: configuration, its engine index in the driver, served
 * adapters, faults and sleep state. Thread-safe: adapters, faults and sleep state are concurrent,
 * sampling is synchronized.
 */
final class SimPod {
  final PodConfig config;
  final EngineConfig engineConfig;
  final int index;
  final RealTimeDriver driver;
  final long createdEpochSec;
  final InstantSource clock;
  private final Map<String, String> adapters = new ConcurrentSkipListMap<>();
  private final AtomicReference<FaultConfig> faults;
  private final AtomicLong ids = new AtomicLong();
  private final AtomicInteger sleepLevel = new AtomicInteger();
  private final AtomicLong reportedSteps = new AtomicLong();
  private final SplittableRandom random;
  private final ShareGptLengths lengths;

  SimPod(
      PodConfig config,
      EngineConfig engineConfig,
      int index,
      RealTimeDriver driver,
      long seed,
      InstantSource clock) {
    this.config = config;
    this.engineConfig = engineConfig;
    this.index = index;
    this.driver = driver;
    this.clock = clock;
    this.createdEpochSec = clock.instant().getEpochSecond();
    this.faults = new AtomicReference<>(config.faults());
    this.random = new SplittableRandom(seed);
    this.lengths = new ShareGptLengths(random);
    config.adapters().forEach(a -> adapters.put(a, "/adapters/" + a));
  }

  String name() {
    return config.name();
  }

  String model() {
    return engineConfig.model();
  }

  /** Served adapters by name, with their paths. */
  Map<String, String> adapters() {
    return adapters;
  }

  FaultConfig faults() {
    return faults.get();
  }

  void setFaults(FaultConfig f) {
    faults.set(f);
  }

  /** 0 when awake, else the vLLM sleep level (1: weights offloaded, 2: all discarded). */
  int sleepLevel() {
    return sleepLevel.get();
  }

  void setSleepLevel(int level) {
    sleepLevel.set(level);
  }

  /** Records that statistics up to engine step {@code steps} were reported; true if it advanced. */
  boolean reportSteps(long steps) {
    return reportedSteps.getAndSet(steps) < steps;
  }

  long nextId() {
    return ids.incrementAndGet();
  }

  /** A ShareGPT-like output length for a prompt of {@code input} tokens. */
  synchronized int sampleOutput(int input) {
    return lengths.output(Math.min(input, 1024));
  }

  /** Whether to inject an error, with the current error rate. */
  synchronized boolean rollError() {
    double rate = faults.get().errorRate();
    return rate > 0 && random.nextDouble() < rate;
  }
}
