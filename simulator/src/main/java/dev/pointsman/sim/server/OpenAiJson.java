package dev.pointsman.sim.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Builds OpenAI-shaped JSON bodies. Thread-safe. */
final class OpenAiJson {
  static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String[] WORDS = {
    " the",
    " model",
    " routes",
    " tokens",
    " quickly",
    " and",
    " a",
    " pod",
    " answers",
    " with",
    " cached",
    " prefix",
    " blocks",
    " of",
    " text",
    " here"
  };

  private OpenAiJson() {}

  static String word(int index) {
    return WORDS[index % WORDS.length];
  }

  /**
   * Token {@code token} of choice {@code choice}: each choice says something slightly different.
   */
  static String word(int choice, int token) {
    return word(token + choice);
  }

  /** The text of a choice of {@code tokens} tokens. */
  static String text(int choice, int tokens) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < tokens; i++) {
      text.append(word(choice, i));
    }
    return text.toString();
  }

  /**
   * A streamed chunk of choice {@code index}: a delta with {@code text} (chat) or a text choice;
   * role on the first.
   */
  static String chunk(Reply r, int index, String text, boolean role, String finishReason) {
    ObjectNode root = header(r, r.chat() ? "chat.completion.chunk" : "text_completion");
    ObjectNode choice = root.putArray("choices").addObject().put("index", index);
    if (r.chat()) {
      ObjectNode delta = choice.putObject("delta");
      if (role) {
        delta.put("role", "assistant");
      }
      if (text != null) {
        delta.put("content", text);
      }
    } else {
      choice.put("text", text == null ? "" : text);
    }
    choice.putNull("logprobs");
    choice.put("finish_reason", finishReason);
    return root.toString();
  }

  /** The final streamed chunk with empty choices and usage, counting every choice's tokens. */
  static String usageChunk(Reply r, int completion, int cached) {
    ObjectNode root = header(r, r.chat() ? "chat.completion.chunk" : "text_completion");
    root.putArray("choices");
    usage(root, r.promptTokens(), completion * r.n(), cached);
    return root.toString();
  }

  /** A complete non-streamed response: {@code n} choices of {@code completion} tokens each. */
  static String full(Reply r, int completion, int cached, String finishReason) {
    ObjectNode root = header(r, r.chat() ? "chat.completion" : "text_completion");
    ArrayNode choices = root.putArray("choices");
    for (int i = 0; i < r.n(); i++) {
      ObjectNode choice = choices.addObject().put("index", i);
      if (r.chat()) {
        choice.putObject("message").put("role", "assistant").put("content", text(i, completion));
      } else {
        choice.put("text", text(i, completion));
      }
      choice.putNull("logprobs");
      choice.put("finish_reason", finishReason);
    }
    usage(root, r.promptTokens(), completion * r.n(), cached);
    return root.toString();
  }

  /** An OpenAI error body. */
  static String error(String message, String type, int code) {
    ObjectNode root = MAPPER.createObjectNode();
    root.putObject("error").put("message", message).put("type", type).put("code", code);
    return root.toString();
  }

  static ObjectNode header(Reply r, String object) {
    return MAPPER
        .createObjectNode()
        .put("id", r.id())
        .put("object", object)
        .put("created", r.created())
        .put("model", r.model());
  }

  private static void usage(ObjectNode root, int prompt, int completion, int cached) {
    ObjectNode u = root.putObject("usage");
    u.put("prompt_tokens", prompt)
        .put("completion_tokens", completion)
        .put("total_tokens", prompt + completion);
    u.putObject("prompt_tokens_details").put("cached_tokens", cached);
  }

  /** Models list entries. */
  static ArrayNode models(String base, long created, java.util.Map<String, String> adapters) {
    ArrayNode data = MAPPER.createArrayNode();
    data.addObject()
        .put("id", base)
        .put("object", "model")
        .put("created", created)
        .put("owned_by", "vllm")
        .put("root", base)
        .putNull("parent");
    adapters.forEach(
        (name, path) ->
            data.addObject()
                .put("id", name)
                .put("object", "model")
                .put("created", created)
                .put("owned_by", "vllm")
                .put("root", path)
                .put("parent", base));
    return data;
  }

  /**
   * Identity of one reply.
   *
   * @param api the API it answers
   * @param id response id
   * @param created creation time, epoch seconds
   * @param model model name as requested
   * @param promptTokens prompt tokens
   * @param n choices (1 for the Responses API)
   */
  record Reply(Api api, String id, long created, String model, int promptTokens, int n) {
    boolean chat() {
      return api == Api.CHAT;
    }
  }
}
