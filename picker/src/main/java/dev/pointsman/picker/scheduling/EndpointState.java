package dev.pointsman.picker.scheduling;

import java.util.Objects;

/**
 * An endpoint as the datastore last saw it: its scraped metrics and whether it can take traffic.
 *
 * @param endpoint the endpoint
 * @param metrics the last good scrape, or {@link EndpointMetrics#UNKNOWN}
 * @param available false when scrapes fail or the endpoint is not ready; unavailable endpoints are
 *     never picked
 */
public record EndpointState(Endpoint endpoint, EndpointMetrics metrics, boolean available) {
  public EndpointState {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(metrics, "metrics");
  }

  public String address() {
    return endpoint.address();
  }
}
