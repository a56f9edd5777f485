package dev.pointsman.sim.engine;

/**
 * What happened to one finished request. Times are in milliseconds of the engine's clock.
 *
 * @param request the request
 * @param pod index of the pod that served it
 * @param firstTokenMs time of the first output token
 * @param finishMs time of the last output token
 * @param cachedTokens prompt tokens served from the prefix cache at first admission
 * @param preemptions times the request was preempted and recomputed
 */
public record RequestResult(
    SimRequest request,
    int pod,
    double firstTokenMs,
    double finishMs,
    int cachedTokens,
    int preemptions) {

  /** Time to first token, from arrival at the server. */
  public double ttftMs() {
    return firstTokenMs - request.arrivalMs();
  }

  /** Mean time per output token after the first, 0 for a single-token answer. */
  public double tpotMs() {
    int n = request.outputTokens();
    return n <= 1 ? 0 : (finishMs - firstTokenMs) / (n - 1);
  }

  /** Arrival to last token. */
  public double e2eMs() {
    return finishMs - request.arrivalMs();
  }

  /** Prompt tokens. */
  public int promptTokens() {
    return request.promptTokens();
  }

  /** Output tokens. */
  public int outputTokens() {
    return request.outputTokens();
  }
}
