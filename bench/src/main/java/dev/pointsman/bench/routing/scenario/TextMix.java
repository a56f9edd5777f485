package dev.pointsman.bench.routing.scenario;

/**
 * The share of prompt content written as English prose, as source code and in a CJK script (weights
 * are relative). Each piece of content (a system prompt, a document, a turn) is one of them, so a
 * prompt's characters per token vary with what it holds: about 4 for prose, 3 for code and 1.5 for
 * CJK text (sources in docs/benchmarks.md). The gateway estimates tokens as characters ÷ 4, so its
 * estimate is right on average for prose only.
 */
public record TextMix(Double prose, Double code, Double cjk) {
  public TextMix {
    prose = Check.nonNegative("production.text.prose", prose, 0.7);
    code = Check.nonNegative("production.text.code", code, 0.2);
    cjk = Check.nonNegative("production.text.cjk", cjk, 0.1);
    if (prose + code + cjk <= 0) {
      throw new IllegalArgumentException(
          "production.text: all weights 0 (expected at least one positive weight)");
    }
  }

  public static TextMix defaults() {
    return new TextMix(null, null, null);
  }

  /** Only English prose. */
  public static TextMix proseOnly() {
    return new TextMix(1.0, 0.0, 0.0);
  }
}
