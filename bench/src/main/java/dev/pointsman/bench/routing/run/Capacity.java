package dev.pointsman.bench.routing.run;

import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.workload.BenchRequest;
import dev.pointsman.bench.routing.workload.RequestStream;
import dev.pointsman.sim.engine.EngineConfig;
import dev.pointsman.sim.engine.EngineListener;
import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.engine.RequestResult;
import dev.pointsman.sim.engine.VirtualCluster;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A fleet's capacity for a scenario's workload, measured rather than assumed: every distinct pod
 * configuration is run alone, in virtual time, saturated by a closed loop (a fixed number of
 * requests outstanding, well above what its batch and KV cache can hold) on the scenario's own
 * request stream, and its completion rate in the middle half of the run is its capacity. The
 * fleet's capacity is the sum over pods; load fractions are fractions of it, so 100% means "every
 * pod busy at its own saturation throughput" on any fleet. The single-pod measurement sees the
 * prefix sharing and adapter churn of the workload on one pod; a cache-aware fleet can exceed it
 * where one pod's cache cannot hold the whole shared working set.
 */
public final class Capacity {
  private static final int OUTSTANDING = 512;

  private final Map<String, Double> perProfile;
  private final double[] perPod;

  private Capacity(Map<String, Double> perProfile, double[] perPod) {
    this.perProfile = Collections.unmodifiableMap(new LinkedHashMap<>(perProfile));
    this.perPod = perPod;
  }

  /** Calibrates with {@code requests} requests per distinct pod configuration. */
  public static Capacity calibrate(Scenario scenario, int requests, long seed) {
    return calibrate(scenario, requests, seed, new HashMap<>());
  }

  /**
   * Calibrates as {@link #calibrate(Scenario, int, long)}, reusing the per-configuration rates in
   * {@code memo} (filled with the ones measured here): for fleets of one scenario's traffic that
   * differ only in pod counts. {@code memo} must be safe for concurrent use if shared.
   */
  public static Capacity calibrate(
      Scenario scenario, int requests, long seed, Map<String, Double> memo) {
    List<EngineConfig> configs = Fleets.configs(scenario);
    Map<String, Double> byKey = memo;
    Map<String, Double> byProfile = new LinkedHashMap<>();
    double[] perPod = new double[configs.size()];
    for (int i = 0; i < configs.size(); i++) {
      EngineConfig c = configs.get(i);
      String profile =
          c.gpu().model().equals(GpuProfiles.DEFAULT_MODEL) ? c.gpu().name() : c.gpu().key();
      String key = profile + "/" + c.maxLoras() + "/" + c.maxCpuLoras();
      double rate = byKey.computeIfAbsent(key, k -> saturatedRate(scenario, c, requests, seed));
      perPod[i] = rate;
      byProfile.putIfAbsent(profile, rate);
    }
    return new Capacity(byProfile, perPod);
  }

  static double saturatedRate(Scenario scenario, EngineConfig config, int requests, long seed) {
    List<BenchRequest> stream =
        RequestStream.generate(scenario, 20, Double.POSITIVE_INFINITY, seed, requests);
    List<Double> finishes = new ArrayList<>(stream.size());
    int[] next = {0};
    VirtualCluster[] holder = new VirtualCluster[1];
    EngineListener listener =
        new EngineListener() {
          @Override
          public void onFinish(RequestResult r) {
            finishes.add(r.finishMs());
            submitNext(holder[0], stream, next, r.finishMs());
          }
        };
    VirtualCluster cluster = new VirtualCluster(List.of(config), listener);
    holder[0] = cluster;
    for (int i = 0; i < OUTSTANDING && next[0] < stream.size(); i++) {
      submitNext(cluster, stream, next, 0);
    }
    cluster.runUntilIdle();
    int from = finishes.size() / 4;
    int to = finishes.size() * 3 / 4;
    double spanMs = finishes.get(to) - finishes.get(from);
    return spanMs <= 0 ? 0 : (to - from) * 1000.0 / spanMs;
  }

  private static void submitNext(
      VirtualCluster cluster, List<BenchRequest> stream, int[] next, double nowMs) {
    while (next[0] < stream.size()) {
      BenchRequest r = stream.get(next[0]++);
      try {
        cluster.submit(r.sim().at(nowMs), 0);
        return;
      } catch (IllegalArgumentException e) {
        // too large for this pod's KV cache: skip it, as a router would never send it here
      }
    }
  }

  /** Fleet capacity in requests per second. */
  public double fleetRequestsPerSecond() {
    double sum = 0;
    for (double r : perPod) {
      sum += r;
    }
    return sum;
  }

  /** Saturation throughput per pod, requests per second. */
  public double[] perPod() {
    return perPod.clone();
  }

  /** Saturation throughput per GPU profile (first configuration seen), requests per second. */
  public Map<String, Double> perProfile() {
    return perProfile;
  }
}
