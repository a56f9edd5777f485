package dev.pointsman.sim.server;

import dev.pointsman.sim.engine.RequestResult;
import java.util.function.Consumer;

/**
 * Chat completion and completion chunks: each token step sends one chunk per choice (its {@code
 * index}), the role on a chat choice's first; then a finish chunk per choice, the usage chunk if
 * asked, and {@code [DONE]}.
 */
final class CompletionStream implements StreamFormat {
  private final OpenAiJson.Reply reply;
  private final boolean includeUsage;
  private final String finishReason;

  CompletionStream(OpenAiJson.Reply reply, boolean includeUsage, String finishReason) {
    this.reply = reply;
    this.includeUsage = includeUsage;
    this.finishReason = finishReason;
  }

  @Override
  public void start(Consumer<String> out) {}

  @Override
  public void token(int index, Consumer<String> out) {
    for (int choice = 0; choice < reply.n(); choice++) {
      out.accept(
          data(
              OpenAiJson.chunk(
                  reply,
                  choice,
                  OpenAiJson.word(choice, index),
                  index == 0 && reply.chat(),
                  null)));
    }
  }

  @Override
  public void finish(RequestResult result, Consumer<String> out) {
    for (int choice = 0; choice < reply.n(); choice++) {
      out.accept(
          data(OpenAiJson.chunk(reply, choice, reply.chat() ? null : "", false, finishReason)));
    }
    if (includeUsage) {
      out.accept(data(OpenAiJson.usageChunk(reply, result.outputTokens(), result.cachedTokens())));
    }
    out.accept("data: [DONE]\n\n");
  }

  private static String data(String json) {
    return "data: " + json + "\n\n";
  }
}
