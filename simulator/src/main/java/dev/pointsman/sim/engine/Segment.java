package dev.pointsman.sim.engine;

/**
 * A run of prompt tokens with shared identity: token {@code i} of the segment is a deterministic
 * function of {@code (contentId, i)}. Two requests whose token sequences are built from the same
 * segments in the same order produce identical KV block hashes, without storing any tokens.
 *
 * @param contentId identity of the content (a system prompt, a document, a conversation turn)
 * @param length number of tokens, at least 1
 */
public record Segment(long contentId, int length) {
  /** Validates the length. */
  public Segment {
    if (length < 1) {
      throw new IllegalArgumentException("length: " + length + " (expected >= 1)");
    }
  }
}
