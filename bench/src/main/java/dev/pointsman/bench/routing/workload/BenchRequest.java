package dev.pointsman.bench.routing.workload;

import dev.pointsman.sim.engine.SimRequest;

/**
 * One request of a stream: what the simulator runs, plus what the client sends the gateway.
 *
 * @param sim the engine's view (segments, output length, adapter)
 * @param kind the workload part it came from ({@code sharegpt}, {@code rag}, {@code trace}, …)
 * @param sheddable whether its objective allows shedding
 * @param streamed whether the client asks for a streamed response ({@code "stream": true})
 * @param cut whether its prompt or answer was cut to the model's context length ({@link
 *     ContextLimit})
 * @param tenant the fairness id the client sends, or null for none
 * @param priority the objective priority its part names, or null for none (then {@code sheddable}
 *     alone decides its objective)
 */
public record BenchRequest(
    SimRequest sim,
    String kind,
    boolean sheddable,
    boolean streamed,
    boolean cut,
    String tenant,
    Integer priority) {

  /** A request of no tenant and no stated priority. */
  public BenchRequest(
      SimRequest sim, String kind, boolean sheddable, boolean streamed, boolean cut) {
    this(sim, kind, sheddable, streamed, cut, null, null);
  }

  /** A streamed request that was not cut. */
  public BenchRequest(SimRequest sim, String kind, boolean sheddable) {
    this(sim, kind, sheddable, true, false);
  }

  public long id() {
    return sim.id();
  }

  public double arrivalMs() {
    return sim.arrivalMs();
  }

  /** The LoRA adapter, or null for the base model. */
  public String adapterOrNull() {
    return sim.adapter().isEmpty() ? null : sim.adapter();
  }
}
