package dev.pointsman.picker.scrape;

import dev.pointsman.picker.scheduling.EndpointMetrics;

/**
 * Receives scrape results. Called from HTTP client or scheduler threads, never concurrently for the
 * same address, and never for an address after it left the targets.
 */
public interface ScrapeListener {

  void onSuccess(String address, EndpointMetrics metrics);

  /**
   * A failed scrape.
   *
   * @param reason one of {@code timeout}, {@code connect}, {@code io}, {@code parse} or {@code
   *     http_<status>}
   */
  void onFailure(String address, String reason);
}
