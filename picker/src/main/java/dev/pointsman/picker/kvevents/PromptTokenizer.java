package dev.pointsman.picker.kvevents;

import dev.pointsman.picker.scheduling.SchedulingRequest;

/**
 * Turns a request's prompt into the token ids its engine computes KV blocks over (the model's own
 * tokenizer, the chat template rendered as the engine renders it). Thread-safe.
 */
@FunctionalInterface
public interface PromptTokenizer {
  /** The request's prompt token ids, or null when they cannot be known for this request. */
  int[] tokenize(SchedulingRequest request);
}
