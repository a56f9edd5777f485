package dev.pointsman.runtime;

/**
 * Settings of an {@link AdminServer}.
 *
 * @param port the port to listen on; 0 picks an ephemeral port
 * @param host the address to bind, e.g. {@code 0.0.0.0} or {@code 127.0.0.1}
 */
public record AdminServerConfig(int port, String host) {

  public AdminServerConfig {
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("admin.port: " + port + " (expected 0..65535)");
    }
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("admin.host: '" + host + "' (expected an address)");
    }
  }

  /** Listens on {@code port} on every interface. */
  public static AdminServerConfig of(int port) {
    return new AdminServerConfig(port, "0.0.0.0");
  }
}
