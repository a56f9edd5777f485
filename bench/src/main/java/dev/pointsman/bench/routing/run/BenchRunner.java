package dev.pointsman.bench.routing.run;

import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.picker.scheduling.PolicyConfig;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs scenarios: calibrates each fleet's capacity, then every (policy, load, seed) as an
 * independent virtual-time run on a small thread pool. Results do not depend on the number of
 * threads.
 */
public final class BenchRunner {
  /** Requests per pod configuration for capacity calibration. */
  public static final int CALIBRATION_REQUESTS = 4000;

  public static final int QUICK_CALIBRATION_REQUESTS = 1200;

  private final List<String> policies;
  private final Map<String, PolicyConfig> custom;
  private final int threads;
  private final int calibrationRequests;
  private final Progress progress;

  public BenchRunner(
      List<String> policies, int threads, int calibrationRequests, Progress progress) {
    this(policies, Map.of(), threads, calibrationRequests, progress);
  }

  /**
   * @param custom operator-written policies by name, run by the production scheduler; their names
   *     must also be in {@code policies}
   */
  public BenchRunner(
      List<String> policies,
      Map<String, PolicyConfig> custom,
      int threads,
      int calibrationRequests,
      Progress progress) {
    this.policies = List.copyOf(policies);
    this.custom = Map.copyOf(custom);
    this.threads = threads;
    this.calibrationRequests = calibrationRequests;
    this.progress = progress;
  }

  /** Runs every scenario (variants already expanded). */
  public List<ScenarioResult> run(List<Scenario> scenarios) {
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> daemon(r));
    try {
      progress.addWork(scenarios.size());
      List<Future<Capacity>> capacities = new ArrayList<>();
      for (Scenario s : scenarios) {
        capacities.add(
            pool.submit(
                () -> {
                  Capacity c = Capacity.calibrate(s, calibrationRequests, s.seeds().get(0) + 1000);
                  progress.step(s.name() + " capacity");
                  return c;
                }));
      }
      List<Capacity> caps = new ArrayList<>();
      for (Future<Capacity> f : capacities) {
        caps.add(get(f));
      }
      List<Task> tasks = new ArrayList<>();
      for (int i = 0; i < scenarios.size(); i++) {
        Scenario s = scenarios.get(i);
        for (String p : policies) {
          for (double load : s.loads()) {
            for (long seed : s.seeds()) {
              tasks.add(new Task(i, s, caps.get(i), p, load, seed));
            }
          }
        }
      }
      progress.addWork(tasks.size());
      tasks.sort(Comparator.comparingDouble(Task::cost).reversed());
      List<Future<RunResult>> futures = new ArrayList<>();
      for (Task t : tasks) {
        futures.add(
            pool.submit(
                () -> {
                  RunResult r =
                      PolicyRun.run(t.scenario, t.capacity, t.policy, custom, t.load, t.seed);
                  progress.step(String.format("%s %s @%.2f", t.scenario.name(), t.policy, t.load));
                  return r;
                }));
      }
      List<List<RunResult>> byScenario = new ArrayList<>();
      for (int i = 0; i < scenarios.size(); i++) {
        byScenario.add(new ArrayList<>());
      }
      for (int i = 0; i < tasks.size(); i++) {
        byScenario.get(tasks.get(i).index).add(get(futures.get(i)));
      }
      List<ScenarioResult> out = new ArrayList<>();
      for (int i = 0; i < scenarios.size(); i++) {
        out.add(ScenarioResult.of(scenarios.get(i), caps.get(i), policies, byScenario.get(i)));
      }
      return out;
    } finally {
      pool.shutdownNow();
      progress.finish();
    }
  }

  private static Thread daemon(Runnable r) {
    Thread t = new Thread(r, "bench-run");
    t.setDaemon(true);
    return t;
  }

  /** The value of {@code f}, rethrowing its runtime failure as it was thrown. */
  public static <T> T get(Future<T> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  private record Task(
      int index, Scenario scenario, Capacity capacity, String policy, double load, long seed) {
    /** A rough cost, to start the longest runs first. */
    double cost() {
      double requests =
          load * capacity.fleetRequestsPerSecond() * scenario.forLoad(load).durationSeconds();
      return requests * ("greedy-lookahead".equals(policy) ? 20 : 1);
    }
  }
}
