package dev.pointsman.sim.engine;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Measures simulated requests per CPU-second on the S1 fleet (2×H100-80, 2×A100-80, 4×L4) with
 * ShareGPT-like lengths and Poisson arrivals at about 70% of capacity, routed to the pod with the
 * least outstanding work per unit of speed. Usage: {@code SpeedCheck [seconds] [ratePerSecond]}.
 */
public final class SpeedCheck {
  private static final String[] FLEET = {
    "H100-80", "H100-80", "A100-80", "A100-80", "L4", "L4", "L4", "L4"
  };

  private SpeedCheck() {}

  /** Runs the check and prints the figure. */
  public static void main(String[] args) {
    double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 300;
    double rate = args.length > 1 ? Double.parseDouble(args[1]) : 120;
    run(seconds * 0.2, rate, 1);
    long[] finished = new long[1];
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long cpu0 = mx.getCurrentThreadCpuTime();
    long n = run(seconds, rate, 42);
    double cpuSeconds = (mx.getCurrentThreadCpuTime() - cpu0) / 1e9;
    finished[0] = n;
    System.out.printf(
        "S1 fleet, %.0f simulated s at %.0f req/s: %d requests in %.2f CPU s = %.0f requests per"
            + " CPU-second%n",
        seconds, rate, finished[0], cpuSeconds, finished[0] / cpuSeconds);
  }

  static long run(double seconds, double rate, long seed) {
    GpuProfiles profiles = GpuProfiles.builtIn();
    List<EngineConfig> configs = new ArrayList<>();
    for (int i = 0; i < FLEET.length; i++) {
      configs.add(EngineConfig.of("pod-" + i, "llama-3-8b", profiles.get(FLEET[i])));
    }
    long[] done = new long[1];
    long[] outstanding = new long[FLEET.length];
    EngineListener listener =
        new EngineListener() {
          @Override
          public void onFinish(RequestResult r) {
            done[0]++;
            outstanding[r.pod()] -= r.promptTokens() + r.outputTokens();
          }
        };
    VirtualCluster cluster = new VirtualCluster(configs, listener);
    SplittableRandom random = new SplittableRandom(seed);
    ShareGptLengths lengths = new ShareGptLengths(random);
    double t = 0;
    for (long id = 0; t < seconds * 1000; id++) {
      t += -Math.log(1 - random.nextDouble()) * 1000 / rate;
      cluster.runUntil(t);
      int in = lengths.input();
      int out = lengths.output(in);
      int pod = leastLoaded(outstanding, configs);
      outstanding[pod] += in + out;
      cluster.submit(SimRequest.of(id, t, List.of(new Segment(random.nextLong(), in)), out), pod);
    }
    cluster.runUntilIdle();
    return done[0];
  }

  private static int leastLoaded(long[] outstanding, List<EngineConfig> configs) {
    int best = 0;
    double bestCost = Double.POSITIVE_INFINITY;
    for (int i = 0; i < outstanding.length; i++) {
      double cost = outstanding[i] / configs.get(i).gpu().prefillTokensPerSecond();
      if (cost < bestCost) {
        best = i;
        bestCost = cost;
      }
    }
    return best;
  }
}
