package dev.pointsman.body.request;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * What routing needs to know about an OpenAI request body.
 *
 * @param model the top-level {@code model}, or null if absent (or JSON null)
 * @param stream the {@code stream} flag
 * @param includeUsage {@code stream_options.include_usage}
 * @param promptPrefix the first characters of the prompt text: instructions first, then message
 *     contents, prompts and inputs in order, segments joined by {@code '\n'}
 * @param promptChars the length of the whole prompt text of which {@code promptPrefix} is a prefix
 * @param estimatedPromptTokens about {@code promptChars / 4} (at least 1 if there is any text) plus
 *     the exact count of token ids in token-array prompts
 * @param maxOutputTokens {@code max_completion_tokens}, {@code max_output_tokens} or (else) {@code
 *     max_tokens}, if given as a non-negative integer
 * @param kind the API, from the request path
 */
public record ParsedRequest(
    String model,
    boolean stream,
    boolean includeUsage,
    String promptPrefix,
    long promptChars,
    int estimatedPromptTokens,
    OptionalInt maxOutputTokens,
    ApiKind kind) {

  public ParsedRequest {
    Objects.requireNonNull(promptPrefix, "promptPrefix");
    Objects.requireNonNull(maxOutputTokens, "maxOutputTokens");
    Objects.requireNonNull(kind, "kind");
    if (promptChars < promptPrefix.length()) {
      throw new IllegalArgumentException(
          "promptChars: "
              + promptChars
              + " (expected >= prefix length "
              + promptPrefix.length()
              + ")");
    }
    if (estimatedPromptTokens < 0) {
      throw new IllegalArgumentException(
          "estimatedPromptTokens: " + estimatedPromptTokens + " (expected >= 0)");
    }
  }
}
