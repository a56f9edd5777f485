package dev.pointsman.sim.server;

import dev.pointsman.sim.engine.RequestResult;
import java.util.function.Consumer;

/**
 * What one streamed API writes, as whole server-sent events: after the headers, per output token,
 * and at the end. Confined to the stream's event loop.
 */
interface StreamFormat {
  /** Events right after the response headers. */
  void start(Consumer<String> out);

  /** Events for output token {@code index} (0-based). */
  void token(int index, Consumer<String> out);

  /** The closing events. */
  void finish(RequestResult result, Consumer<String> out);

  /** The format of {@code call}'s API. */
  static StreamFormat of(OpenAiJson.Reply reply, CompletionCall call) {
    String finishReason = call.maxTokens() > 0 ? "length" : "stop";
    return call.api() == Api.RESPONSES
        ? new ResponsesStream(reply, finishReason.equals("length"))
        : new CompletionStream(reply, call.includeUsage(), finishReason);
  }
}
