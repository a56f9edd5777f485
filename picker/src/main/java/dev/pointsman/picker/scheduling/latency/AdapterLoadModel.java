package dev.pointsman.picker.scheduling.latency;

import dev.pointsman.picker.scheduling.LoraState;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What an adapter load really costs, learned from observed first tokens. A request routed where its
 * adapter is not resident waits for the load, serialised behind any loads already queued on that
 * endpoint, and, when every slot holds an adapter with live requests, for a slot to drain first.
 * None of that is in the engine's metrics, and it differs per endpoint (disk, CPU cache, adapter
 * size), so it is learned: the part of an observed TTFT beyond the base-model prediction is the
 * load's price.
 *
 * <p>Per endpoint it keeps three running means (a warm load from the CPU cache, a cold load, and
 * the wait for a slot) and pool-wide ones used until an endpoint has seen a few loads of its own.
 * Until any load has been observed the configured priors are used. O(1) per update, bounded memory
 * (six numbers per endpoint), thread-safe.
 */
public final class AdapterLoadModel {
  /** Observations of an endpoint before its own means replace the pool-wide ones. */
  static final int MIN_OWN = 3;

  /** Weight of a new observation once the mean is established. */
  private static final double ALPHA = 0.1;

  private final Means global = new Means();
  private final ConcurrentHashMap<String, Means> byEndpoint = new ConcurrentHashMap<>();

  /**
   * Seconds an adapter in {@code state} adds to a request's time to first token on {@code
   * endpoint}.
   *
   * @param loadsAhead loads the picker has triggered on this endpoint and not yet seen finish
   * @param priorLoad seconds one load is assumed to take before any was observed
   * @param priorSlotWait seconds assumed to wait for a slot before any such wait was observed
   */
  public double price(
      String endpoint, LoraState state, int loadsAhead, double priorLoad, double priorSlotWait) {
    Means own = byEndpoint.get(endpoint);
    return switch (state) {
      case NONE, RESIDENT -> 0.0;
      case LOADING, WAITING -> mean(own, Kind.WARM, priorLoad);
      case WARM_LOAD, WARM_EVICT -> mean(own, Kind.WARM, priorLoad) * (1 + Math.max(0, loadsAhead));
      case COLD_LOAD, COLD_EVICT, UNLISTED ->
          mean(own, Kind.COLD, priorLoad) * (1 + Math.max(0, loadsAhead));
      case BLOCKED ->
          mean(own, Kind.COLD, priorLoad) * (1 + Math.max(0, loadsAhead))
              + mean(own, Kind.SLOT_WAIT, priorSlotWait);
    };
  }

  /**
   * Learns from one request routed in {@code state}: {@code extraSeconds} is its observed TTFT
   * minus the base-model prediction made when it was routed.
   */
  public void observe(String endpoint, LoraState state, int loadsAhead, double extraSeconds) {
    if (!state.triggersLoad() || Double.isNaN(extraSeconds) || Double.isInfinite(extraSeconds)) {
      return;
    }
    double extra = Math.max(0, extraSeconds);
    int serial = 1 + Math.max(0, loadsAhead);
    Means own = byEndpoint.computeIfAbsent(endpoint, e -> new Means());
    switch (state) {
      case WARM_LOAD, WARM_EVICT -> add(own, Kind.WARM, extra / serial);
      case COLD_LOAD, COLD_EVICT -> add(own, Kind.COLD, extra / serial);
      case BLOCKED -> {
        double load = mean(own, Kind.COLD, Double.NaN);
        // before any cold load was seen, the whole excess is the slot wait
        add(own, Kind.SLOT_WAIT, Math.max(0, extra - (Double.isNaN(load) ? 0 : load * serial)));
      }
      default -> {}
    }
  }

  /** The learned mean of {@code kind} on {@code endpoint} (or pool-wide), or NaN if none yet. */
  public double learned(String endpoint, Kind kind) {
    return mean(byEndpoint.get(endpoint), kind, Double.NaN);
  }

  /** Forgets endpoints that left every pool. */
  public void retain(Collection<String> endpoints) {
    Set<String> keep = new HashSet<>(endpoints);
    byEndpoint.keySet().removeIf(e -> !keep.contains(e));
  }

  private void add(Means own, Kind kind, double value) {
    own.add(kind, value);
    global.add(kind, value);
  }

  private double mean(Means own, Kind kind, double prior) {
    if (own != null) {
      double v = own.meanIfAtLeast(kind, MIN_OWN);
      if (!Double.isNaN(v)) {
        return v;
      }
    }
    double v = global.meanIfAtLeast(kind, 1);
    return Double.isNaN(v) ? prior : v;
  }

  /** The three learned prices. */
  public enum Kind {
    /** Loading an adapter the endpoint has in its CPU cache. */
    WARM,
    /** Loading an adapter from storage. */
    COLD,
    /** Waiting for a slot when every slot holds an adapter with live requests. */
    SLOT_WAIT
  }

  private static final class Means {
    private final double[] mean = new double[Kind.values().length];
    private final long[] count = new long[Kind.values().length];

    synchronized void add(Kind kind, double value) {
      int k = kind.ordinal();
      count[k]++;
      double w = Math.max(ALPHA, 1.0 / count[k]);
      mean[k] += w * (value - mean[k]);
    }

    synchronized double meanIfAtLeast(Kind kind, int n) {
      int k = kind.ordinal();
      return count[k] >= n ? mean[k] : Double.NaN;
    }
  }
}
