package dev.pointsman.picker.kvevents;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The model's own tokenizer, from its repository's {@code tokenizer.json}, through DJL's binding of
 * Hugging Face tokenizers (its native library ships in the jar; nothing is downloaded). The prompt
 * text is encoded as is, with the tokenizer's special tokens (a completions prompt as vLLM encodes
 * it); a chat request's template is not rendered, so its blocks match only as far as the rendered
 * text starts with the same tokens. Thread-safe: the native tokenizer is shared and immutable.
 */
public final class HfPromptTokenizer implements PromptTokenizer, AutoCloseable {
  private final HuggingFaceTokenizer tokenizer;

  private HfPromptTokenizer(HuggingFaceTokenizer tokenizer) {
    this.tokenizer = tokenizer;
  }

  /** Loads {@code file}; a clear error when it is not a readable tokenizer file. */
  public static HfPromptTokenizer open(Path file) {
    if (!Files.isReadable(file)) {
      throw new IllegalArgumentException(
          "kvEvents.tokenizer: '" + file + "' (expected a readable tokenizer.json file)");
    }
    try {
      return new HfPromptTokenizer(HuggingFaceTokenizer.newInstance(file));
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(
          "kvEvents.tokenizer: '" + file + "' (not a tokenizer.json: " + e.getMessage() + ")", e);
    }
  }

  @Override
  public int[] tokenize(SchedulingRequest request) {
    String text = request.promptPrefix().toString();
    if (text == null || text.isEmpty()) {
      return null;
    }
    long[] ids = tokenizer.encode(text, true, false).getIds();
    int[] out = new int[ids.length];
    for (int i = 0; i < ids.length; i++) {
      out[i] = (int) ids[i];
    }
    return out;
  }

  @Override
  public void close() {
    tokenizer.close();
  }
}
