package dev.pointsman.picker.recording;

import java.util.Objects;

/**
 * One recorded request, before its prefix blocks are salted. Holds no text.
 *
 * @param arrivalMs when it was routed, ms after the recording started
 * @param inputTokens prompt tokens (the response's usage, else the picker's estimate)
 * @param outputTokens completion tokens (the response's usage, else 0)
 * @param blocks the chained hashes of its prompt's prefix blocks, unsalted (never written as they
 *     are: they are the same in every installation)
 * @param model the model as the model server knows it
 * @param adapter the LoRA adapter, or null
 * @param tenant the tenant header's value, or null
 */
public record TraceRow(
    long arrivalMs,
    int inputTokens,
    int outputTokens,
    long[] blocks,
    String model,
    String adapter,
    String tenant) {
  public TraceRow {
    Objects.requireNonNull(blocks, "blocks");
    if (arrivalMs < 0) {
      throw new IllegalArgumentException("arrivalMs: " + arrivalMs + " (expected >= 0)");
    }
  }
}
