package dev.pointsman.picker.routing;

import dev.pointsman.picker.flowcontrol.FlowRequest;
import dev.pointsman.picker.flowcontrol.Pressure;
import java.util.Objects;

/**
 * Where flow control holds one request.
 *
 * @param key the pools the request may go to, comma-joined: one queue per key
 * @param priority the request's band (its objective's priority; negative is sheddable)
 * @param retryAfterSeconds the back-off to suggest when it is refused
 * @param probe the pools' pressure now, as this request meets it
 */
public record FlowTarget(String key, int priority, int retryAfterSeconds, Probe probe) {

  /** The pools' pressure now for the request (its TTFT prediction uses the request's size). */
  @FunctionalInterface
  public interface Probe {
    Pressure pressure(FlowRequest request);
  }

  public FlowTarget {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(probe, "probe");
  }
}
