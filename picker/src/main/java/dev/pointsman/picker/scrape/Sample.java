package dev.pointsman.picker.scrape;

import java.util.Map;
import java.util.Objects;

/**
 * One sample of a Prometheus text exposition: a series (name and labels) and its value. The
 * optional timestamp is not kept.
 *
 * @param name metric name as written, e.g. {@code vllm:num_requests_waiting} or {@code x_bucket}
 * @param labels label names to unescaped values; empty when the line has none
 * @param value the value, possibly {@code NaN} or infinite
 */
public record Sample(String name, Map<String, String> labels, double value) {
  public Sample {
    Objects.requireNonNull(name, "name");
    labels = labels == null ? Map.of() : Map.copyOf(labels);
  }

  /** The value of label {@code key}, or {@code null} when absent. */
  public String label(String key) {
    return labels.get(key);
  }
}
