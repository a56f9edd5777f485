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

  /** A streamed chunk: a delta with {@code text} (chat) or a text choice; role on the first. */
  static String chunk(Reply r, String text, boolean role, String finishReason) {
    ObjectNode root = header(r, r.chat() ? "chat.completion.chunk" : "text_completion");
    ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
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

  /** The final streamed chunk with empty choices and usage. */
  static String usageChunk(Reply r, int completion, int cached) {
    ObjectNode root = header(r, r.chat() ? "chat.completion.chunk" : "text_completion");
    root.putArray("choices");
    usage(root, r.promptTokens(), completion, cached);
    return root.toString();
  }

  /** A complete non-streamed response. */
  static String full(Reply r, int completion, int cached, String finishReason) {
    ObjectNode root = header(r, r.chat() ? "chat.completion" : "text_completion");
    ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < completion; i++) {
      text.append(word(i));
    }
    if (r.chat()) {
      choice.putObject("message").put("role", "assistant").put("content", text.toString());
    } else {
      choice.put("text", text.toString());
    }
    choice.putNull("logprobs");
    choice.put("finish_reason", finishReason);
    usage(root, r.promptTokens(), completion, cached);
    return root.toString();
  }

  /** An OpenAI error body. */
  static String error(String message, String type, int code) {
    ObjectNode root = MAPPER.createObjectNode();
    root.putObject("error").put("message", message).put("type", type).put("code", code);
    return root.toString();
  }

  private static ObjectNode header(Reply r, String object) {
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
   * @param chat chat or text completion
   * @param id response id
   * @param created creation time, epoch seconds
   * @param model model name as requested
   * @param promptTokens prompt tokens
   */
  record Reply(boolean chat, String id, long created, String model, int promptTokens) {}
}
