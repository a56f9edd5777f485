package dev.pointsman.sim.server;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Builds OpenAI Responses API bodies: the response object, its one assistant message, and the
 * streamed events ({@code response.created} ... {@code response.completed}). Thread-safe.
 */
final class ResponsesJson {
  private ResponsesJson() {}

  /**
   * The response object.
   *
   * @param status {@code in_progress}, {@code completed} or {@code incomplete}
   * @param text the message text, or null while nothing is produced yet (empty output)
   * @param outputTokens output tokens, counted in {@code usage} when the response is done
   */
  static ObjectNode response(
      OpenAiJson.Reply r, String status, String text, int outputTokens, int cached) {
    ObjectNode root =
        OpenAiJson.MAPPER
            .createObjectNode()
            .put("id", r.id())
            .put("object", "response")
            .put("created_at", r.created())
            .put("status", status);
    root.putNull("error");
    if (status.equals("incomplete")) {
      root.putObject("incomplete_details").put("reason", "max_output_tokens");
    } else {
      root.putNull("incomplete_details");
    }
    root.putNull("instructions");
    root.put("model", r.model());
    var output = root.putArray("output");
    if (text != null) {
      output.add(message(r, status.equals("in_progress") ? "in_progress" : "completed", text));
    }
    root.put("parallel_tool_calls", true);
    root.put("temperature", 1.0).put("top_p", 1.0).put("tool_choice", "auto");
    root.putArray("tools");
    root.putObject("metadata");
    if (status.equals("in_progress")) {
      root.putNull("usage");
    } else {
      ObjectNode u = root.putObject("usage");
      u.put("input_tokens", r.promptTokens());
      u.putObject("input_tokens_details").put("cached_tokens", cached);
      u.put("output_tokens", outputTokens);
      u.putObject("output_tokens_details").put("reasoning_tokens", 0);
      u.put("total_tokens", r.promptTokens() + outputTokens);
    }
    return root;
  }

  /** The assistant message item; {@code text} null gives it no content part yet. */
  static ObjectNode message(OpenAiJson.Reply r, String status, String text) {
    ObjectNode item =
        OpenAiJson.MAPPER
            .createObjectNode()
            .put("type", "message")
            .put("id", messageId(r))
            .put("status", status)
            .put("role", "assistant");
    var content = item.putArray("content");
    if (text != null) {
      content.add(outputText(text));
    }
    return item;
  }

  static ObjectNode outputText(String text) {
    ObjectNode part = OpenAiJson.MAPPER.createObjectNode().put("type", "output_text");
    part.put("text", text);
    part.putArray("annotations");
    return part;
  }

  static String messageId(OpenAiJson.Reply r) {
    return "msg_" + r.id().substring(Api.RESPONSES.idPrefix().length());
  }

  /** One streamed event: {@code event: TYPE} and its JSON, with {@code type} and its number. */
  static String event(String type, int sequence, ObjectNode fields) {
    ObjectNode e = OpenAiJson.MAPPER.createObjectNode().put("type", type);
    e.put("sequence_number", sequence);
    e.setAll(fields);
    return "event: " + type + "\ndata: " + e + "\n\n";
  }

  static ObjectNode fields() {
    return OpenAiJson.MAPPER.createObjectNode();
  }
}
