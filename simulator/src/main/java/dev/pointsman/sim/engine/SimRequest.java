package dev.pointsman.sim.engine;

import java.util.List;

/**
 * One inference request as the engine sees it.
 *
 * @param id caller-chosen identity, unique per pod
 * @param arrivalMs time the request reaches the server; it enters the engine queue {@code
 *     apiOverheadMs} later
 * @param prompt the prompt as segments; their lengths sum to the prompt token count
 * @param outputTokens tokens to generate, at least 1
 * @param adapter LoRA adapter name, or the empty string for the base model
 * @param outputContentId identity of the generated text, so that a later turn that contains this
 *     answer as a {@code Segment(outputContentId, n)} hits the blocks this request cached
 */
public record SimRequest(
    long id,
    double arrivalMs,
    List<Segment> prompt,
    int outputTokens,
    String adapter,
    long outputContentId) {

  /** Validates and copies. */
  public SimRequest {
    prompt = List.copyOf(prompt);
    if (prompt.isEmpty()) {
      throw new IllegalArgumentException("prompt: empty (expected at least one segment)");
    }
    if (outputTokens < 1) {
      throw new IllegalArgumentException("outputTokens: " + outputTokens + " (expected >= 1)");
    }
    if (!(arrivalMs >= 0)) {
      throw new IllegalArgumentException("arrivalMs: " + arrivalMs + " (expected >= 0)");
    }
    adapter = adapter == null ? "" : adapter;
  }

  /** A base-model request whose generated content is identified by its id. */
  public static SimRequest of(long id, double arrivalMs, List<Segment> prompt, int outputTokens) {
    return new SimRequest(id, arrivalMs, prompt, outputTokens, "", ~id);
  }

  /** Number of prompt tokens. */
  public int promptTokens() {
    int n = 0;
    for (Segment s : prompt) {
      n += s.length();
    }
    return n;
  }

  /** This request arriving at another time (used by probes and retries). */
  public SimRequest at(double newArrivalMs) {
    return new SimRequest(id, newArrivalMs, prompt, outputTokens, adapter, outputContentId);
  }
}
