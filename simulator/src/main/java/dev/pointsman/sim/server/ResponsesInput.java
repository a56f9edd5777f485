package dev.pointsman.sim.server;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The prompt of a Responses API request: {@code instructions} as a system message, then {@code
 * input}, a string or a list of items (messages whose content is a string or a list of {@code
 * input_text} parts; other item and part types carry no text the simulator needs).
 */
final class ResponsesInput {
  private ResponsesInput() {}

  static String text(JsonNode instructions, JsonNode input) {
    StringBuilder sb = new StringBuilder();
    if (instructions != null && instructions.isTextual()) {
      sb.append("<|system|>\n").append(instructions.asText()).append('\n');
    }
    if (input != null && input.isTextual()) {
      return sb.append("<|user|>\n").append(input.asText()).append('\n').toString();
    }
    if (input == null || !input.isArray() || input.isEmpty()) {
      throw new IllegalArgumentException(
          "input: missing (expected a string or a non-empty array of items)");
    }
    for (JsonNode item : input) {
      if (!item.isObject()) {
        throw new IllegalArgumentException("input: expected an array of objects");
      }
      CompletionCall.appendTurn(sb, item);
    }
    return sb.toString();
  }
}
