package dev.pointsman.picker.config;

import java.util.Locale;

/**
 * Shadow mode (off by default): the picker decides every request but leaves the route to the
 * existing balancer, and reports what it would have picked against what served. See
 * docs/rollout.md.
 *
 * @param enabled shadow (default false)
 * @param destination what the picker's reply routes to: {@code none} (no destination header or
 *     metadata: the data plane routes by its own cluster, e.g. the local gateway's {@code
 *     fallbackEndpoints} or an Envoy route to the existing balancer's cluster), the default and the
 *     only value for now ({@code balancer}, the picker echoing a choice of the existing balancer,
 *     is reserved)
 */
public record ShadowSection(Boolean enabled, String destination) {
  public static final ShadowSection DEFAULTS = new ShadowSection(null, null);

  public ShadowSection {
    enabled = enabled != null && enabled;
    destination = destination == null ? "none" : destination.toLowerCase(Locale.ROOT);
    if (!destination.equals("none")) {
      throw new IllegalArgumentException(
          "destination: '"
              + destination
              + "' (expected none; balancer is reserved and not implemented yet)");
    }
  }
}
