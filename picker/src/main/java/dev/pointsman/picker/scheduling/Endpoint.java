package dev.pointsman.picker.scheduling;

import java.util.Map;
import java.util.Objects;

/**
 * One model-server endpoint: a pod's IP and port (a pod with several data-parallel ports is several
 * endpoints).
 *
 * @param address {@code ip:port}, the value the picker returns to Envoy
 * @param pool the pool this endpoint belongs to
 * @param labels free-form labels, e.g. {@code gpu=H100-80}; read by speed profiles
 */
public record Endpoint(String address, String pool, Map<String, String> labels) {
  public Endpoint {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(pool, "pool");
    if (address.isBlank() || address.indexOf(':') < 1) {
      throw new IllegalArgumentException(
          "endpoint address: '" + address + "' (expected host:port)");
    }
    labels = labels == null ? Map.of() : Map.copyOf(labels);
  }

  public Endpoint(String address, String pool) {
    this(address, pool, Map.of());
  }

  public String label(String key) {
    return labels.get(key);
  }
}
