package dev.pointsman.inference.request;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * What routing needs to know about an OpenAI request body.
 *
 * @param model the top-level {@code model}, or null if absent (a JSON null is rejected, as OpenAI
 *     does, rather than taken as absent)
 * @param stream the {@code stream} flag
 * @param includeUsage {@code stream_options.include_usage}
 * @param prompt the first characters of the prompt text: instructions first, then message contents,
 *     prompts and inputs in order, segments joined by {@code '\n'} (as a String: {@link
 *     #promptPrefix})
 * @param promptChars the length of the whole prompt text of which {@code prompt} is a prefix
 * @param estimatedPromptTokens about {@code promptChars / 4} (at least 1 if there is any text) plus
 *     the exact count of token ids in token-array prompts
 * @param maxOutputTokens {@code max_completion_tokens}, {@code max_output_tokens} or (else) {@code
 *     max_tokens}, if given as a non-negative integer
 * @param kind the API, from the request path
 * @param span byte positions of the root object and the model value
 */
public record ParsedRequest(
    String model,
    boolean stream,
    boolean includeUsage,
    PromptChars prompt,
    long promptChars,
    int estimatedPromptTokens,
    OptionalInt maxOutputTokens,
    ApiKind kind,
    ModelSpan span) {

  /** A request with no byte positions recorded (built by hand, not parsed). */
  public ParsedRequest(
      String model,
      boolean stream,
      boolean includeUsage,
      String promptPrefix,
      long promptChars,
      int estimatedPromptTokens,
      OptionalInt maxOutputTokens,
      ApiKind kind) {
    this(
        model,
        stream,
        includeUsage,
        PromptChars.of(promptPrefix),
        promptChars,
        estimatedPromptTokens,
        maxOutputTokens,
        kind,
        ModelSpan.NONE);
  }

  /**
   * Where things are in the body's bytes, so that the model can be rewritten (an alias to its
   * canonical name, or a default model inserted) without re-serialising the body.
   *
   * @param objectStart offset of the root object's {@code {}, or -1
   * @param valueStart offset of the {@code model} string token's opening quote, or -1 if absent
   * @param valueEnd offset just past its closing quote, or -1
   */
  public record ModelSpan(long objectStart, long valueStart, long valueEnd) {
    public static final ModelSpan NONE = new ModelSpan(-1, -1, -1);
  }

  /** The prompt prefix as a String (a copy: routing reads {@link #prompt} in place). */
  public String promptPrefix() {
    return prompt.toString();
  }

  public ParsedRequest {
    Objects.requireNonNull(prompt, "prompt");
    Objects.requireNonNull(maxOutputTokens, "maxOutputTokens");
    Objects.requireNonNull(kind, "kind");
    span = span == null ? ModelSpan.NONE : span;
    if (promptChars < prompt.length()) {
      throw new IllegalArgumentException(
          "promptChars: " + promptChars + " (expected >= prefix length " + prompt.length() + ")");
    }
    if (estimatedPromptTokens < 0) {
      throw new IllegalArgumentException(
          "estimatedPromptTokens: " + estimatedPromptTokens + " (expected >= 0)");
    }
  }
}
