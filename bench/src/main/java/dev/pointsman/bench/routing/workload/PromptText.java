package dev.pointsman.bench.routing.workload;

import dev.pointsman.bench.routing.scenario.TextMix;
import dev.pointsman.sim.engine.Segment;

/**
 * Renders a prompt segment as the text a client would send. Each piece of content ({@code
 * contentId}) is written in one script, drawn from the scenario's {@link TextMix}; token {@code i}
 * of it becomes a run of characters that depends only on {@code (contentId, i)}, so equal segments
 * give equal text and different content differs from its first characters. How many characters a
 * token becomes varies token by token around the script's mean:
 *
 * <ul>
 *   <li>prose: 1–7 lower-case letters, most tokens starting with a space (mean 4 per token, the
 *       rule of thumb for English text);
 *   <li>code: 1–5 characters of identifiers, operators, brackets and line breaks (mean 3);
 *   <li>CJK: 1–2 ideographs (mean 1.5).
 * </ul>
 *
 * <p>The engine runs exact token counts; the gateway only sees this text, so its characters ÷ 4
 * estimate is off the way it is for real prompts (sources of the ratios in docs/benchmarks.md).
 */
public final class PromptText {
  /** The script of one piece of content. */
  public enum Script {
    PROSE(4.0),
    CODE(3.0),
    CJK(1.5);

    private final double meanCharsPerToken;

    Script(double meanCharsPerToken) {
      this.meanCharsPerToken = meanCharsPerToken;
    }

    /** The mean characters per token of text in this script. */
    public double meanCharsPerToken() {
      return meanCharsPerToken;
    }
  }

  private static final char[] LETTERS = "abcdefghijklmnopqrstuvwxyz".toCharArray();
  private static final char[] CODE =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,;:()[]{}<>=+-*/&|!? \n\t"
          .toCharArray();

  /** CJK Unified Ideographs, U+4E00..U+9FFF. */
  private static final int CJK_FIRST = 0x4E00;

  private static final int CJK_COUNT = 0x5200;

  private final double prose;
  private final double proseOrCode;

  public PromptText(TextMix mix) {
    double total = mix.prose() + mix.code() + mix.cjk();
    this.prose = mix.prose() / total;
    this.proseOrCode = (mix.prose() + mix.code()) / total;
  }

  /** The script content {@code contentId} is written in. */
  public Script scriptOf(long contentId) {
    double u = (mix(contentId ^ 0x7E47L) >>> 11) * 0x1.0p-53;
    return u < prose ? Script.PROSE : u < proseOrCode ? Script.CODE : Script.CJK;
  }

  /** The text of {@code segment}. */
  public String render(Segment segment) {
    StringBuilder sb = new StringBuilder(segment.length() * 4);
    append(sb, segment);
    return sb.toString();
  }

  /** Appends the text of {@code segment} to {@code sb}. */
  public void append(StringBuilder sb, Segment segment) {
    Script script = scriptOf(segment.contentId());
    long base = segment.contentId() * 0x9E3779B97F4A7C15L;
    for (int i = 0; i < segment.length(); i++) {
      long h = mix(base + i);
      switch (script) {
        case PROSE -> {
          int n = 1 + (int) Long.remainderUnsigned(h, 7);
          long bits = h >>> 3;
          if (((h >>> 60) & 0xF) < 12) {
            sb.append(' ');
            n--;
          }
          for (int c = 0; c < n; c++, bits >>>= 5) {
            sb.append(LETTERS[(int) Long.remainderUnsigned(bits & 31, LETTERS.length)]);
          }
        }
        case CODE -> {
          int n = 1 + (int) Long.remainderUnsigned(h, 5);
          long bits = h >>> 3;
          for (int c = 0; c < n; c++, bits >>>= 7) {
            sb.append(CODE[(int) ((bits & 127) % CODE.length)]);
          }
        }
        case CJK -> {
          int n = 1 + (int) (h & 1);
          long bits = h >>> 1;
          for (int c = 0; c < n; c++, bits >>>= 16) {
            sb.append((char) (CJK_FIRST + (bits & 0xFFFF) % CJK_COUNT));
          }
        }
      }
    }
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return z ^ (z >>> 33);
  }
}
