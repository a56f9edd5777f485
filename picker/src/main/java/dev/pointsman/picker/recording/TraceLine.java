package dev.pointsman.picker.recording;

/**
 * One row as a line of Mooncake JSONL ({@code timestamp}, {@code input_length}, {@code
 * output_length}, {@code hash_ids}) with Pointsman's fields: {@code block_tokens} (what one id
 * stands for: {@value #BLOCK_TOKENS} tokens, a 64-character block at about four characters a token;
 * the bench reads it in place of Mooncake's 512), {@code model}, and {@code adapter} and {@code
 * tenant} when known.
 */
final class TraceLine {
  /** Tokens one recorded hash id stands for. */
  static final int BLOCK_TOKENS = 16;

  private TraceLine() {}

  static String format(TraceRow row, long[] ids) {
    StringBuilder sb = new StringBuilder(96 + ids.length * 20);
    sb.append("{\"timestamp\":").append(row.arrivalMs());
    sb.append(",\"input_length\":").append(row.inputTokens());
    sb.append(",\"output_length\":").append(row.outputTokens());
    sb.append(",\"hash_ids\":[");
    for (int i = 0; i < ids.length; i++) {
      if (i > 0) {
        sb.append(',');
      }
      sb.append(ids[i]);
    }
    sb.append("],\"block_tokens\":").append(BLOCK_TOKENS);
    string(sb, "model", row.model());
    string(sb, "adapter", row.adapter());
    string(sb, "tenant", row.tenant());
    return sb.append('}').toString();
  }

  /** The most ids a prompt of {@code inputTokens} tokens may carry (the bench checks it). */
  static int maxIds(int inputTokens) {
    return (int) ((Math.max(0L, inputTokens) + BLOCK_TOKENS - 1) / BLOCK_TOKENS);
  }

  private static void string(StringBuilder sb, String key, String value) {
    if (value == null) {
      return;
    }
    sb.append(",\"").append(key).append("\":\"");
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
