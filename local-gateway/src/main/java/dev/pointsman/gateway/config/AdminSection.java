package dev.pointsman.gateway.config;

import dev.pointsman.runtime.AdminServerConfig;

/**
 * The optional admin HTTP listener ({@code /metrics}, {@code /healthz}, {@code /readyz}).
 *
 * @param port TCP port (0: any free port)
 * @param host bind address, default loopback
 */
public record AdminSection(Integer port, String host) {
  public AdminSection {
    port = port == null ? 9901 : port;
    host = host == null ? "127.0.0.1" : host;
    new AdminServerConfig(port, host); // validates
  }

  public AdminServerConfig toServerConfig() {
    return new AdminServerConfig(port, host);
  }
}
