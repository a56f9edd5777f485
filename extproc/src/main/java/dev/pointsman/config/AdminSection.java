package dev.pointsman.config;

import dev.pointsman.runtime.AdminServerConfig;

/**
 * The admin HTTP listener: {@code /metrics}, {@code /healthz}, {@code /readyz}, {@code
 * /debug/decisions}.
 *
 * @param port TCP port (0: any free port)
 * @param host bind address, default loopback ({@code 127.0.0.1}); {@code picker --kubernetes} and
 *     the Helm chart bind {@code 0.0.0.0}
 */
public record AdminSection(Integer port, String host) {
  public static final AdminSection DEFAULTS = new AdminSection(null, null);

  public AdminSection {
    port = port == null ? 9090 : port;
    host = host == null ? "127.0.0.1" : host;
    new AdminServerConfig(port, host);
  }

  public AdminServerConfig toServerConfig() {
    return new AdminServerConfig(port, host);
  }

  public AdminSection withPort(int newPort) {
    return new AdminSection(newPort, host);
  }

  public AdminSection withHost(String newHost) {
    return new AdminSection(port, newHost);
  }
}
