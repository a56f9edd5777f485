package dev.pointsman.bench.routing.scenario;

/**
 * How the gateway in front of the fleet is deployed and what clients send it, so that the bench's
 * pickers see what production pickers see (docs/benchmarks.md, "What each policy sees").
 *
 * @param pickerReplicas independent picker replicas (default 1; the Helm chart ships 2), each with
 *     its own scrapes, in-flight tracker, prefix index and learned models
 * @param envoys Envoy replicas spreading ext_proc streams over the picker replicas (default 2, as
 *     the chart), each with its own count of open streams per picker
 * @param streamedFraction share of requests sent with {@code "stream": true} (default 1); a
 *     non-streamed response's first byte comes with its last token, so the picker learns no time to
 *     first token from it
 * @param text what the prompts are written in, which sets their characters per token
 * @param sharing whether the picker replicas share what they learn (picks, observed latencies,
 *     in-flight work), as the picker's replication does: every 50 ms, 1 ms on the wire (default
 *     false: independent replicas); needs at least 2 replicas
 * @param flowControl the picker's flow control in front of the fleet (default off)
 */
public record ProductionSpec(
    Integer pickerReplicas,
    Integer envoys,
    Double streamedFraction,
    TextMix text,
    Boolean sharing,
    FlowSpec flowControl) {
  /** More replicas than this is not a deployment the bench models. */
  public static final int MAX_REPLICAS = 64;

  public ProductionSpec {
    pickerReplicas = Check.atLeast("production.pickerReplicas", pickerReplicas, 1, 1);
    if (pickerReplicas > MAX_REPLICAS) {
      throw new IllegalArgumentException(
          "production.pickerReplicas: " + pickerReplicas + " (expected <= " + MAX_REPLICAS + ")");
    }
    envoys = Check.atLeast("production.envoys", envoys, 2, 1);
    if (envoys > MAX_REPLICAS) {
      throw new IllegalArgumentException(
          "production.envoys: " + envoys + " (expected <= " + MAX_REPLICAS + ")");
    }
    streamedFraction = Check.fraction("production.streamedFraction", streamedFraction, 1.0);
    text = text == null ? TextMix.defaults() : text;
    flowControl = flowControl == null ? FlowSpec.off() : flowControl;
    sharing = sharing != null && sharing;
    if (sharing && pickerReplicas < 2) {
      throw new IllegalArgumentException(
          "production.sharing: true with pickerReplicas "
              + pickerReplicas
              + " (expected pickerReplicas >= 2: one replica has nobody to share with)");
    }
  }

  public static ProductionSpec defaults() {
    return new ProductionSpec(null, null, null, null, null, null);
  }

  /** A copy with {@code n} picker replicas. */
  public ProductionSpec withPickerReplicas(int n) {
    return new ProductionSpec(n, envoys, streamedFraction, text, sharing, flowControl);
  }

  /** A copy whose replicas share what they learn, or not. */
  public ProductionSpec withSharing(boolean share) {
    return new ProductionSpec(pickerReplicas, envoys, streamedFraction, text, share, flowControl);
  }
}
