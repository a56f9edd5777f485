package dev.pointsman.picker.scrape;

import java.util.Objects;

/**
 * An endpoint to scrape.
 *
 * @param address {@code host:port}; scraped at {@code http://<address>/metrics}
 * @param engine how to read its metrics
 */
public record ScrapeTarget(String address, Engine engine) {
  public ScrapeTarget {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(engine, "engine");
    if (address.isBlank() || address.indexOf(':') < 1 || address.indexOf('/') >= 0) {
      throw new IllegalArgumentException("scrape address: '" + address + "' (expected host:port)");
    }
  }
}
