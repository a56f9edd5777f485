package dev.pointsman.fleet.config;

import dev.pointsman.fleet.choice.Tier;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One cluster the fleet routes to.
 *
 * @param name the cluster's name; must equal its picker's {@code summary.cluster}
 * @param gateway the cluster gateway's {@code ip:port}: the destination the fleet returns
 * @param summary the cluster picker's summary listener, {@code host:port}
 * @param authority the TLS name the summary listener's certificate must carry (default: the host of
 *     {@code summary})
 * @param tier {@code spot}, {@code reserved} or {@code on-demand}
 * @param pricePerGpuHour what its GPUs cost per hour; cheaper clusters are filled first
 * @param rttMillis the network round trip from each client region to this cluster
 * @param region where the cluster runs (optional): a request's fallbacks are clusters of other
 *     regions first, so a region that goes away takes no request's fallback with it
 */
public record ClusterConfig(
    String name,
    String gateway,
    String summary,
    String authority,
    String tier,
    Double pricePerGpuHour,
    Map<String, Double> rttMillis,
    String region) {

  public ClusterConfig {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("name: '" + name + "' (expected the cluster's name)");
    }
    requireHostPort("gateway", gateway);
    requireHostPort("summary", summary);
    Tier.of(tier);
    Objects.requireNonNull(pricePerGpuHour, "pricePerGpuHour: missing (expected a price >= 0)");
    if (!(pricePerGpuHour >= 0)) {
      throw new IllegalArgumentException(
          "pricePerGpuHour: " + pricePerGpuHour + " (expected a price >= 0)");
    }
    rttMillis = rttMillis == null ? Map.of() : new TreeMap<>(rttMillis);
    rttMillis.forEach(
        (from, rtt) -> {
          if (rtt == null || !(rtt >= 0)) {
            throw new IllegalArgumentException(
                "rttMillis." + from + ": " + rtt + " (expected milliseconds >= 0)");
          }
        });
    rttMillis = Map.copyOf(rttMillis);
    if (region != null && region.isBlank()) {
      throw new IllegalArgumentException(
          "region: '' (expected where the cluster runs, or leave it out)");
    }
  }

  public Tier costTier() {
    return Tier.of(tier);
  }

  /** The summary listener's TLS name: {@code authority}, else the host of {@code summary}. */
  public String summaryAuthority() {
    return authority != null ? authority : summary.substring(0, summary.lastIndexOf(':'));
  }

  private static void requireHostPort(String key, String value) {
    int colon = value == null ? -1 : value.lastIndexOf(':');
    boolean ok = colon > 0;
    if (ok) {
      try {
        int port = Integer.parseInt(value.substring(colon + 1));
        ok = port > 0 && port <= 65_535;
      } catch (NumberFormatException e) {
        ok = false;
      }
    }
    if (!ok) {
      throw new IllegalArgumentException(key + ": '" + value + "' (expected host:port)");
    }
  }
}
