package dev.pointsman.sim.server;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A parsed OpenAI generation request: chat completions, completions or responses.
 *
 * @param api which API it came in on
 * @param model requested model (base model or adapter name)
 * @param promptText the prompt (chat messages or response input flattened with their roles)
 * @param maxTokens requested output length, or 0 if absent
 * @param stream whether to stream server-sent events
 * @param includeUsage whether a stream ends with a usage chunk (chat and completions)
 * @param n how many choices to return (chat and completions; 1 for responses)
 */
record CompletionCall(
    Api api,
    String model,
    String promptText,
    int maxTokens,
    boolean stream,
    boolean includeUsage,
    int n) {

  /** The most choices one request may ask for, as OpenAI's API. */
  static final int MAX_N = 128;

  CompletionCall {
    if (n < 1 || n > MAX_N) {
      throw new IllegalArgumentException("n: " + n + " (expected 1.." + MAX_N + ")");
    }
  }

  boolean chat() {
    return api == Api.CHAT;
  }

  /** Parses a request body; throws {@link IllegalArgumentException} with an OpenAI-style text. */
  static CompletionCall parse(Api api, JsonNode body) {
    if (body == null || !body.isObject()) {
      throw new IllegalArgumentException("request body: expected a JSON object");
    }
    JsonNode model = body.get("model");
    if (model == null || !model.isTextual()) {
      throw new IllegalArgumentException("model: missing (expected a string)");
    }
    String maxField = api == Api.RESPONSES ? "max_output_tokens" : "max_completion_tokens";
    int max = body.path(maxField).asInt(body.path("max_tokens").asInt(0));
    if (max < 0) {
      throw new IllegalArgumentException(maxField + ": " + max + " (expected >= 1)");
    }
    JsonNode n = body.path("n");
    if (!n.isMissingNode() && !n.isNull() && (!n.isIntegralNumber() || api == Api.RESPONSES)) {
      throw new IllegalArgumentException(
          api == Api.RESPONSES
              ? "n: not supported by the Responses API"
              : "n: expected an integer");
    }
    String prompt =
        switch (api) {
          case CHAT -> messages(body.get("messages"));
          case COMPLETION -> prompt(body.get("prompt"));
          case RESPONSES -> ResponsesInput.text(body.get("instructions"), body.get("input"));
        };
    return new CompletionCall(
        api,
        model.asText(),
        prompt,
        max,
        body.path("stream").asBoolean(false),
        body.path("stream_options").path("include_usage").asBoolean(false),
        n.isIntegralNumber() ? n.asInt() : 1);
  }

  private static String messages(JsonNode messages) {
    if (messages == null || !messages.isArray() || messages.isEmpty()) {
      throw new IllegalArgumentException("messages: missing (expected a non-empty array)");
    }
    StringBuilder sb = new StringBuilder();
    for (JsonNode m : messages) {
      appendTurn(sb, m);
    }
    return sb.toString();
  }

  /**
   * One chat turn as prompt text: {@code <|role|>}, its content (a string, or the text of its
   * parts), a newline. Chat messages and Responses input items share it.
   */
  static void appendTurn(StringBuilder sb, JsonNode turn) {
    sb.append("<|").append(turn.path("role").asText("user")).append("|>\n");
    JsonNode content = turn.get("content");
    if (content != null && content.isArray()) {
      content.forEach(part -> sb.append(part.path("text").asText("")));
    } else if (content != null) {
      sb.append(content.asText(""));
    }
    sb.append('\n');
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
