package dev.pointsman.picker.config;

import dev.pointsman.extproc.RoutingHeaders;
import java.util.Locale;

/**
 * Shadow mode (off by default): the picker decides every request but leaves the route to the
 * existing balancer, and reports what it would have picked against what served. See
 * docs/rollout.md.
 *
 * @param enabled shadow (default false)
 * @param destination what the picker's reply routes to: {@code none} (the default: no destination
 *     header or metadata, the data plane routes by its own cluster, e.g. the local gateway's {@code
 *     fallbackEndpoints} or Envoy's {@code fallback-default} route to the existing balancer's
 *     cluster), or {@code balancer}: the endpoint a balancer in front of the gateway chose, read
 *     from the request header {@code balancerHeader} — known before the request is routed, unlike
 *     the choice of a balancer behind the gateway (Envoy's own cluster balancing happens after the
 *     picker has answered)
 * @param balancerHeader with {@code destination: balancer}, the request header in which the
 *     balancer in front names its chosen endpoint as {@code ip:port}; lower-cased
 */
public record ShadowSection(Boolean enabled, String destination, String balancerHeader) {
  public static final ShadowSection DEFAULTS = new ShadowSection(null, null, null);

  public ShadowSection {
    enabled = enabled != null && enabled;
    destination = destination == null ? "none" : destination.toLowerCase(Locale.ROOT);
    if (!destination.equals("none") && !destination.equals("balancer")) {
      throw new IllegalArgumentException(
          "destination: '" + destination + "' (expected none or balancer)");
    }
    if (balancerHeader != null) {
      balancerHeader = balancerHeader.trim().toLowerCase(Locale.ROOT);
    }
    if (destination.equals("balancer")) {
      if (balancerHeader == null || !balancerHeader.matches("[a-z0-9!#$%&'*+.^_`|~-]+")) {
        throw new IllegalArgumentException(
            "balancerHeader: "
                + (balancerHeader == null ? "missing" : "'" + balancerHeader + "'")
                + " (expected the name of the request header in which the balancer in front names"
                + " its endpoint, with destination: balancer)");
      }
      if (RoutingHeaders.STRIPPED.contains(balancerHeader)) {
        throw new IllegalArgumentException(
            "balancerHeader: '"
                + balancerHeader
                + "' (expected a header the gateway does not strip from requests;"
                + " Envoy removes the x-gateway-* routing headers before the picker sees them)");
      }
    } else if (balancerHeader != null) {
      throw new IllegalArgumentException(
          "balancerHeader: '"
              + balancerHeader
              + "' with destination: none (expected destination: balancer, or no balancerHeader)");
    }
  }

  /** The balancer's header when the destination is the balancer's choice, else null. */
  public String balancerHeaderInUse() {
    return enabled && destination.equals("balancer") ? balancerHeader : null;
  }
}
