package dev.pointsman.extproc;

/**
 * The OpenAI {@code usage} object of a response.
 *
 * @param promptTokens {@code prompt_tokens}, or -1
 * @param completionTokens {@code completion_tokens}, or -1
 * @param cachedTokens {@code prompt_tokens_details.cached_tokens}, or -1
 */
public record Usage(int promptTokens, int completionTokens, int cachedTokens) {
  public static final Usage NONE = new Usage(-1, -1, -1);

  public boolean present() {
    return promptTokens >= 0 || completionTokens >= 0;
  }

  /** Prompt plus completion tokens, or -1 when the response reported no usage. */
  public long tokens() {
    return present() ? Math.max(0, promptTokens) + Math.max(0, completionTokens) : -1;
  }
}
