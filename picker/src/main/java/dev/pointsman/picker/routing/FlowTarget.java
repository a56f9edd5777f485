package dev.pointsman.picker.routing;

import dev.pointsman.picker.flowcontrol.FlowController;
import java.util.Objects;

/**
 * Where flow control holds one request.
 *
 * @param key the pools the request may go to, comma-joined: one queue per key
 * @param priority the request's band (its objective's priority; negative is sheddable)
 * @param retryAfterSeconds the back-off to suggest when it is refused
 * @param probe the pools' pressure now
 */
public record FlowTarget(
    String key, int priority, int retryAfterSeconds, FlowController.Probe probe) {
  public FlowTarget {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(probe, "probe");
  }
}
