package dev.pointsman.sim.server;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A parsed OpenAI completion request.
 *
 * @param chat true for {@code /v1/chat/completions}
 * @param model requested model (base model or adapter name)
 * @param promptText the prompt (chat messages flattened with their roles)
 * @param maxTokens requested output length, or 0 if absent
 * @param stream whether to stream server-sent events
 * @param includeUsage whether a stream ends with a usage chunk
 */
record CompletionCall(
    boolean chat,
    String model,
    String promptText,
    int maxTokens,
    boolean stream,
    boolean includeUsage) {

  /** Parses a request body; throws {@link IllegalArgumentException} with an OpenAI-style text. */
  static CompletionCall parse(boolean chat, JsonNode body) {
    if (body == null || !body.isObject()) {
      throw new IllegalArgumentException("request body: expected a JSON object");
    }
    JsonNode model = body.get("model");
    if (model == null || !model.isTextual()) {
      throw new IllegalArgumentException("model: missing (expected a string)");
    }
    int max = body.path("max_completion_tokens").asInt(body.path("max_tokens").asInt(0));
    if (max < 0) {
      throw new IllegalArgumentException("max_tokens: " + max + " (expected >= 1)");
    }
    return new CompletionCall(
        chat,
        model.asText(),
        chat ? messages(body.get("messages")) : prompt(body.get("prompt")),
        max,
        body.path("stream").asBoolean(false),
        body.path("stream_options").path("include_usage").asBoolean(false));
  }

  private static String messages(JsonNode messages) {
    if (messages == null || !messages.isArray() || messages.isEmpty()) {
      throw new IllegalArgumentException("messages: missing (expected a non-empty array)");
    }
    StringBuilder sb = new StringBuilder();
    for (JsonNode m : messages) {
      sb.append("<|").append(m.path("role").asText("user")).append("|>\n");
      JsonNode content = m.get("content");
      if (content != null && content.isArray()) {
        content.forEach(part -> sb.append(part.path("text").asText("")));
      } else if (content != null) {
        sb.append(content.asText(""));
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  private static String prompt(JsonNode prompt) {
    if (prompt == null || !(prompt.isTextual() || prompt.isArray())) {
      throw new IllegalArgumentException("prompt: missing (expected a string)");
    }
    if (prompt.isTextual()) {
      return prompt.asText();
    }
    StringBuilder sb = new StringBuilder();
    prompt.forEach(p -> sb.append(p.asText("")));
    return sb.toString();
  }
}
