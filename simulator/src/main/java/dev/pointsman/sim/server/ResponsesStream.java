package dev.pointsman.sim.server;

import dev.pointsman.sim.engine.RequestResult;
import java.util.function.Consumer;

/**
 * Responses API events, numbered: {@code response.created}, {@code response.in_progress}, the
 * message's {@code output_item.added} and {@code content_part.added}, one {@code output_text.delta}
 * per token, then {@code output_text.done}, {@code content_part.done}, {@code output_item.done} and
 * {@code response.completed} (or {@code response.incomplete} when the output stopped at {@code
 * max_output_tokens}). No {@code [DONE]}: the Responses stream has none.
 */
final class ResponsesStream implements StreamFormat {
  private final OpenAiJson.Reply reply;
  private final boolean stopsAtLimit;
  private int sequence;

  ResponsesStream(OpenAiJson.Reply reply, boolean stopsAtLimit) {
    this.reply = reply;
    this.stopsAtLimit = stopsAtLimit;
  }

  @Override
  public void start(Consumer<String> out) {
    var created = ResponsesJson.response(reply, "in_progress", null, 0, 0);
    out.accept(event("response.created", ResponsesJson.fields().set("response", created)));
    out.accept(event("response.in_progress", ResponsesJson.fields().set("response", created)));
    out.accept(
        event(
            "response.output_item.added",
            ResponsesJson.fields()
                .put("output_index", 0)
                .set("item", ResponsesJson.message(reply, "in_progress", null))));
    out.accept(
        event("response.content_part.added", part().set("part", ResponsesJson.outputText(""))));
  }

  @Override
  public void token(int index, Consumer<String> out) {
    out.accept(event("response.output_text.delta", part().put("delta", OpenAiJson.word(0, index))));
  }

  @Override
  public void finish(RequestResult result, Consumer<String> out) {
    int tokens = result.outputTokens();
    String text = OpenAiJson.text(0, tokens);
    out.accept(event("response.output_text.done", part().put("text", text)));
    out.accept(
        event("response.content_part.done", part().set("part", ResponsesJson.outputText(text))));
    out.accept(
        event(
            "response.output_item.done",
            ResponsesJson.fields()
                .put("output_index", 0)
                .set("item", ResponsesJson.message(reply, "completed", text))));
    String status = stopsAtLimit ? "incomplete" : "completed";
    out.accept(
        event(
            "response." + status,
            ResponsesJson.fields()
                .set(
                    "response",
                    ResponsesJson.response(reply, status, text, tokens, result.cachedTokens()))));
  }

  private com.fasterxml.jackson.databind.node.ObjectNode part() {
    return ResponsesJson.fields()
        .put("item_id", ResponsesJson.messageId(reply))
        .put("output_index", 0)
        .put("content_index", 0);
  }

  private String event(String type, com.fasterxml.jackson.databind.JsonNode fields) {
    return ResponsesJson.event(
        type, sequence++, (com.fasterxml.jackson.databind.node.ObjectNode) fields);
  }
}
