package dev.pointsman.sim.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * A fleet of engines in virtual time: a discrete-event driver that processes every pod's events in
 * global time order (ties: lower pod index first), so a run is deterministic for the same calls.
 * Typical use by a benchmark: for each arrival, {@link #runUntil} its time, read {@link #snapshot}s
 * (possibly older ones, to model stale scrapes), pick a pod, {@link #submit}; finally {@link
 * #runUntilIdle}. Listener callbacks may submit further requests at or after the callback's time.
 * Not thread-safe.
 */
public final class VirtualCluster {
  private final List<Engine> pods;
  private double now;

  /** One clean engine per config; pod indexes follow the list order. */
  public VirtualCluster(List<EngineConfig> configs, EngineListener listener) {
    this(configs, listener, Imperfections.CLEAN, 0);
  }

  /**
   * One engine per config in the imperfect {@code world}, pod i's draws seeded by {@code seed} and
   * i (see {@link Engine}).
   */
  public VirtualCluster(
      List<EngineConfig> configs, EngineListener listener, Imperfections world, long seed) {
    List<Engine> list = new ArrayList<>(configs.size());
    for (int i = 0; i < configs.size(); i++) {
      list.add(new Engine(configs.get(i), i, listener, world, seed));
    }
    this.pods = List.copyOf(list);
  }

  /** Number of pods. */
  public int size() {
    return pods.size();
  }

  /** Virtual time reached so far, in ms. */
  public double now() {
    return now;
  }

  /** The engine of pod {@code i} (read it; drive it only through this cluster). */
  public Engine pod(int i) {
    return pods.get(i);
  }

  /**
   * Sends {@code request} to pod {@code pod}. Its arrival must not be before {@link #now()}.
   *
   * @throws IllegalArgumentException on an arrival in the past or a request the pod cannot take
   *     (including any request while it restarts)
   */
  public void submit(SimRequest request, int pod) {
    if (request.arrivalMs() < now) {
      throw new IllegalArgumentException(
          "request "
              + request.id()
              + ": arrivalMs "
              + request.arrivalMs()
              + " (expected >= now "
              + now
              + ")");
    }
    pods.get(pod).submit(request);
  }

  /** Whether pod {@code i} takes requests now (false while it restarts). */
  public boolean isUp(int i) {
    return pods.get(i).isUp();
  }

  /** Whether pod {@code i} is, was or will be out for a restart at {@code timeMs}. */
  public boolean restartingAt(int i, double timeMs) {
    return pods.get(i).restartingAt(timeMs);
  }

  /** Aborts a request on a pod (a client that went away); false if it was not live there. */
  public boolean abort(long requestId, int pod) {
    return pods.get(pod).abort(requestId);
  }

  /** Processes all events up to and including {@code timeMs}, in global time order. */
  public void runUntil(double timeMs) {
    while (true) {
      int next = nextPod();
      if (next < 0 || pods.get(next).nextEventTime() > timeMs) {
        break;
      }
      Engine e = pods.get(next);
      now = Math.max(now, e.nextEventTime());
      e.processNext();
    }
    now = Math.max(now, timeMs);
    for (Engine e : pods) {
      e.advanceTo(now);
    }
  }

  /** Runs until no pod has anything left to do. */
  public void runUntilIdle() {
    for (int next = nextPod(); next >= 0; next = nextPod()) {
      Engine e = pods.get(next);
      now = Math.max(now, e.nextEventTime());
      e.processNext();
    }
  }

  /** Observable state of pod {@code i} at {@link #now()}. */
  public PodSnapshot snapshot(int i) {
    return pods.get(i).snapshot();
  }

  /**
   * A copy of pod {@code i}'s exact state reporting to {@code listener}; see {@link Engine#copy}.
   */
  public Engine clonePod(int i, EngineListener listener) {
    return pods.get(i).copy(listener);
  }

  /**
   * The TTFT {@code request} would get on pod {@code i} if sent now and nothing else arrived: the
   * greedy lookahead's probe. Runs a clone; the cluster is unchanged. Empty if the pod cannot take
   * it.
   */
  public OptionalDouble probeTtftMs(SimRequest request, int i) {
    double[] first = {Double.NaN};
    EngineListener probe =
        new EngineListener() {
          @Override
          public void onFirstToken(int pod, SimRequest r, double timeMs) {
            if (r.id() == request.id()) {
              first[0] = timeMs;
            }
          }
        };
    Engine clone = pods.get(i).copy(probe);
    try {
      clone.submit(request);
    } catch (IllegalArgumentException e) {
      return OptionalDouble.empty();
    }
    while (Double.isNaN(first[0]) && clone.processNext()) {
      // play forward until the request's first token
    }
    return Double.isNaN(first[0])
        ? OptionalDouble.empty()
        : OptionalDouble.of(first[0] - request.arrivalMs());
  }

  private int nextPod() {
    int best = -1;
    double bestTime = Double.POSITIVE_INFINITY;
    for (int i = 0; i < pods.size(); i++) {
      double t = pods.get(i).nextEventTime();
      if (t < bestTime) {
        best = i;
        bestTime = t;
      }
    }
    return best;
  }
}
