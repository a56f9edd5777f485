package dev.pointsman.bench.routing.trace;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;

/**
 * Reads Mooncake JSONL one line at a time. Blank lines and unknown fields are skipped; {@code
 * hash_ids} may be absent (no prefix sharing) or shorter than the prompt's blocks (the rest is
 * unique); an {@code output_length} of 0 is replayed as 1 token (the engine emits at least the
 * first token). A {@code block_tokens} field states how many tokens one hash id stands for (a
 * Pointsman recording writes 16: its blocks are 64 characters); it overrides the trace's default
 * (Mooncake's 512) and must be the same on every row that has it, from the first row on. Anything
 * else wrong names the line.
 */
final class MooncakeReader {
  private static final ObjectMapper JSON = new ObjectMapper();

  private MooncakeReader() {}

  static void read(BufferedReader in, Trace.Builder out, String source) throws IOException {
    TraceLines.each(in, source, TraceFormat.MOONCAKE, line -> row(line, out));
  }

  private static void row(String line, Trace.Builder out) {
    JsonNode node;
    try {
      node = JSON.readTree(line);
    } catch (JacksonException e) {
      throw new IllegalArgumentException("not JSON (" + e.getOriginalMessage() + ")");
    }
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException("not a JSON object");
    }
    double time = number(node, "timestamp");
    if (!(time >= 0) || Double.isInfinite(time)) {
      throw new IllegalArgumentException("timestamp: " + time + " (must be >= 0 ms)");
    }
    JsonNode declared = node.get("block_tokens");
    if (declared != null) {
      out.declareBlockTokens(integer(node, "block_tokens", 1));
    }
    int input = integer(node, "input_length", 1);
    int output = Math.max(1, integer(node, "output_length", 0));
    JsonNode ids = node.get("hash_ids");
    long[] blocks;
    if (ids == null || ids.isNull()) {
      blocks = new long[0];
    } else if (!ids.isArray()) {
      throw new IllegalArgumentException("hash_ids: " + ids + " (must be an array of integers)");
    } else {
      long maxBlocks = (input + (long) out.blockTokens() - 1) / out.blockTokens();
      if (ids.size() > maxBlocks) {
        throw new IllegalArgumentException(
            "hash_ids: "
                + ids.size()
                + " ids for input_length "
                + input
                + " (at most "
                + maxBlocks
                + " blocks of "
                + out.blockTokens()
                + " tokens)");
      }
      blocks = new long[ids.size()];
      for (int i = 0; i < blocks.length; i++) {
        JsonNode id = ids.get(i);
        if (!id.canConvertToLong() || !id.isIntegralNumber()) {
          throw new IllegalArgumentException(
              "hash_ids[" + i + "]: " + id + " (must be an integer)");
        }
        blocks[i] = id.asLong();
      }
    }
    out.add(time, input, output, blocks);
  }

  private static double number(JsonNode node, String field) {
    JsonNode v = node.get(field);
    if (v == null || !v.isNumber()) {
      throw new IllegalArgumentException(
          field + ": " + (v == null ? "missing" : v.toString()) + " (must be a number)");
    }
    return v.asDouble();
  }

  private static int integer(JsonNode node, String field, int min) {
    JsonNode v = node.get(field);
    if (v == null || !v.isIntegralNumber() || !v.canConvertToInt() || v.asInt() < min) {
      throw new IllegalArgumentException(
          field
              + ": "
              + (v == null ? "missing" : v.toString())
              + " (must be an integer >= "
              + min
              + ")");
    }
    return v.asInt();
  }
}
