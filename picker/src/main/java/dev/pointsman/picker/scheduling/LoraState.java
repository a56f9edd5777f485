package dev.pointsman.picker.scheduling;

/**
 * Where a LoRA request's adapter stands on one endpoint, as far as the picker can tell. vLLM's
 * metric lists only adapters with running or waiting requests, so residency is inferred from the
 * picker's own routing: the adapters it recently sent an endpoint, the ones it has requests live
 * for there, and the loads it has triggered and not yet seen finish. Which adapters an endpoint can
 * serve at all comes from its {@code /v1/models} listing ({@link AdapterListing}).
 */
public enum LoraState {
  /** A base-model request: no adapter needed. */
  NONE(1.0),
  /** The adapter is loaded: it has running requests, or the picker sent it recently. */
  RESIDENT(1.0),
  /**
   * A load is under way: the picker sent a request that triggered it and has not seen a first
   * token, or the engine reports requests waiting for it with a slot to spare.
   */
  LOADING(0.9),
  /** Not resident; a slot is free; recently seen here (probably in the CPU cache). */
  WARM_LOAD(0.8),
  /** Not resident; a slot is free; not seen here for a while. */
  COLD_LOAD(0.8),
  /** Not resident; the load must evict an idle adapter; recently seen here. */
  WARM_EVICT(0.7),
  /** Not resident; the load must evict an idle adapter; not seen here for a while. */
  COLD_EVICT(0.7),
  /** The engine reports requests waiting for it while every other slot holds live requests. */
  WAITING(0.6),
  /** Not resident, and every slot holds an adapter with live requests: it must wait for one. */
  BLOCKED(0.0),
  /**
   * The endpoint's {@code /v1/models} does not list the adapter and reports no requests for it: the
   * server would refuse the request (404) unless it resolves adapters on demand, as a cold load.
   */
  UNLISTED(0.0);

  private final double affinity;

  LoraState(double affinity) {
    this.affinity = affinity;
  }

  /** The affinity score of this state, 0–1: higher is cheaper to serve. */
  public double affinity() {
    return affinity;
  }

  /** Whether routing here makes the endpoint load the adapter. */
  public boolean triggersLoad() {
    return this == WARM_LOAD
        || this == COLD_LOAD
        || this == WARM_EVICT
        || this == COLD_EVICT
        || this == BLOCKED;
  }

  /** Whether the adapter can be loaded here only after another adapter's requests drain. */
  public boolean waitsForSlot() {
    return this == WAITING || this == BLOCKED;
  }

  /** Whether the load, if any, is probably from the CPU cache. */
  public boolean warm() {
    return this == WARM_LOAD || this == WARM_EVICT;
  }

  /** Whether a request routed here waits for an adapter load (its own or one in progress). */
  public boolean waitsForLoad() {
    return triggersLoad() || this == LOADING || this == WAITING;
  }
}
