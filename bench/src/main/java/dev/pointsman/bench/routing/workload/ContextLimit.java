package dev.pointsman.bench.routing.workload;

import dev.pointsman.sim.engine.Segment;
import java.util.ArrayList;
import java.util.List;

/**
 * The served model's context length, applied to a request as a client would have to: a request
 * whose prompt and answer together exceed it is cut, and marked so that the report can count it.
 * The answer keeps its length up to half the context; the prompt keeps its first tokens (so shared
 * prefixes stay shared) up to what is left. A server would reject the request instead (vLLM answers
 * 400 when prompt plus {@code max_tokens} exceeds {@code max_model_len}); replaying it cut keeps
 * its load in the run.
 *
 * @param contextTokens the model's context length in tokens
 */
public record ContextLimit(int contextTokens) {
  /** The smallest context accepted. */
  public static final int MIN_TOKENS = 256;

  public ContextLimit {
    if (contextTokens < MIN_TOKENS) {
      throw new IllegalArgumentException(
          "contextTokens: " + contextTokens + " (expected >= " + MIN_TOKENS + ")");
    }
  }

  /** A request that fits: its prompt, answer length and whether anything was cut. */
  public record Fit(List<Segment> prompt, int outputTokens, boolean cut) {}

  /** Fits {@code prompt} and an answer of {@code outputTokens} into the context. */
  public Fit fit(List<Segment> prompt, int outputTokens) {
    long in = 0;
    for (Segment s : prompt) {
      in += s.length();
    }
    if (in + outputTokens <= contextTokens) {
      return new Fit(prompt, outputTokens, false);
    }
    int out = Math.min(outputTokens, contextTokens / 2);
    return new Fit(head(prompt, contextTokens - out), out, true);
  }

  private static List<Segment> head(List<Segment> prompt, int tokens) {
    List<Segment> out = new ArrayList<>();
    int left = tokens;
    for (Segment s : prompt) {
      if (left <= 0) {
        break;
      }
      out.add(s.length() <= left ? s : new Segment(s.contentId(), left));
      left -= s.length();
    }
    return List.copyOf(out);
  }
}
