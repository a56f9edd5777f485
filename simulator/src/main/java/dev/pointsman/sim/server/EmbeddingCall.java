package dev.pointsman.sim.server;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A parsed {@code /v1/embeddings} request.
 *
 * @param model requested model
 * @param inputs the inputs, each as text (a token-id array as its JSON text)
 * @param tokens each input's token count
 * @param dimensions the vector length
 * @param base64 {@code encoding_format: base64} (little-endian float32), else floats
 */
record EmbeddingCall(
    String model, List<String> inputs, List<Integer> tokens, int dimensions, boolean base64) {

  /** The vector length without {@code dimensions}. */
  static final int DEFAULT_DIMENSIONS = 1024;

  static final int MAX_DIMENSIONS = 8192;

  /** The most inputs one request may carry, as OpenAI's API. */
  static final int MAX_INPUTS = 2048;

  EmbeddingCall {
    inputs = List.copyOf(inputs);
    tokens = List.copyOf(tokens);
  }

  /** Parses a request body; throws {@link IllegalArgumentException} with an OpenAI-style text. */
  static EmbeddingCall parse(JsonNode body) {
    if (body == null || !body.isObject()) {
      throw new IllegalArgumentException("request body: expected a JSON object");
    }
    JsonNode model = body.get("model");
    if (model == null || !model.isTextual()) {
      throw new IllegalArgumentException("model: missing (expected a string)");
    }
    List<String> inputs = new ArrayList<>();
    List<Integer> tokens = new ArrayList<>();
    JsonNode input = body.get("input");
    if (input != null && input.isTextual()) {
      add(input, inputs, tokens);
    } else if (input != null && input.isArray() && !input.isEmpty()) {
      if (input.get(0).isIntegralNumber()) {
        add(input, inputs, tokens); // one input as token ids
      } else {
        input.forEach(i -> add(i, inputs, tokens));
      }
    } else {
      throw new IllegalArgumentException(
          "input: missing (expected a string, an array of strings, or token-id arrays)");
    }
    if (inputs.size() > MAX_INPUTS) {
      throw new IllegalArgumentException(
          "input: " + inputs.size() + " items (expected at most " + MAX_INPUTS + ")");
    }
    JsonNode dims = body.path("dimensions");
    int dimensions = dims.isMissingNode() || dims.isNull() ? DEFAULT_DIMENSIONS : dims.asInt(-1);
    if (!(dims.isMissingNode() || dims.isNull() || dims.isIntegralNumber())
        || dimensions < 1
        || dimensions > MAX_DIMENSIONS) {
      throw new IllegalArgumentException(
          "dimensions: " + dims + " (expected an integer 1.." + MAX_DIMENSIONS + ")");
    }
    String format = body.path("encoding_format").asText("float");
    if (!format.equals("float") && !format.equals("base64")) {
      throw new IllegalArgumentException(
          "encoding_format: '" + format + "' (expected float or base64)");
    }
    return new EmbeddingCall(model.asText(), inputs, tokens, dimensions, format.equals("base64"));
  }

  private static void add(JsonNode input, List<String> inputs, List<Integer> tokens) {
    if (input.isTextual()) {
      if (input.asText().isEmpty()) {
        throw new IllegalArgumentException("input: an empty string (expected text)");
      }
      inputs.add(input.asText());
      tokens.add(PromptMapper.segments(input.asText()).stream().mapToInt(s -> s.length()).sum());
      return;
    }
    if (input.isArray() && !input.isEmpty()) {
      for (JsonNode t : input) {
        if (!t.isIntegralNumber() || t.asLong() < 0) {
          throw new IllegalArgumentException("input: " + t + " (expected a token id >= 0)");
        }
      }
      inputs.add(input.toString());
      tokens.add(input.size());
      return;
    }
    throw new IllegalArgumentException(
        "input: " + input + " (expected a string or a non-empty array of token ids)");
  }
}
