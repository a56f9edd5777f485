package dev.pointsman.inference.request;

/**
 * Bounds applied while parsing a request body.
 *
 * @param maxBodyBytes bodies longer than this are rejected with 413 as soon as the limit is passed
 * @param maxPrefixChars how many characters of prompt text are kept
 * @param maxDepth how deeply objects and arrays may nest (the root object is depth 1)
 */
public record ParserLimits(long maxBodyBytes, int maxPrefixChars, int maxDepth) {
  /** 16 MiB: room for a few base64 images. */
  public static final long DEFAULT_MAX_BODY_BYTES = 16L << 20;

  /** 64 Ki characters (the picker keeps its own amount: what its prefix hasher reads). */
  public static final int DEFAULT_MAX_PREFIX_CHARS = 64 << 10;

  /** 64 levels. */
  public static final int DEFAULT_MAX_DEPTH = 64;

  public ParserLimits {
    if (maxBodyBytes < 1) {
      throw new IllegalArgumentException("maxBodyBytes: " + maxBodyBytes + " (expected >= 1)");
    }
    if (maxPrefixChars < 0) {
      throw new IllegalArgumentException("maxPrefixChars: " + maxPrefixChars + " (expected >= 0)");
    }
    if (maxDepth < 1 || maxDepth > 10_000) {
      throw new IllegalArgumentException("maxDepth: " + maxDepth + " (expected 1..10000)");
    }
  }

  /** The default limits. */
  public static ParserLimits defaults() {
    return new ParserLimits(DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_PREFIX_CHARS, DEFAULT_MAX_DEPTH);
  }
}
