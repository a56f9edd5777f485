package dev.pointsman.gateway.app;

import dev.pointsman.gateway.config.GatewayConfig;
import dev.pointsman.gateway.proxy.ProxyServer;
import dev.pointsman.gateway.telemetry.GatewayMetrics;
import dev.pointsman.runtime.AdminServer;
import dev.pointsman.runtime.Metrics;
import dev.pointsman.runtime.TrustReloader;
import java.util.Optional;

/**
 * The local gateway, wired: the data plane and, when configured, the admin listener with its
 * Prometheus metrics. For the demo, tests and laptops; production uses Envoy with {@code
 * deploy/envoy/envoy.yaml}.
 *
 * <pre>
 * try (LocalGateway gw = LocalGateway.start(config)) {
 *   URI base = URI.create("https://localhost:" + gw.port());
 * }
 * </pre>
 */
public final class LocalGateway implements AutoCloseable {
  private final Metrics metrics;
  private final GatewayMetrics meters;
  private final ProxyServer proxy;
  private final AdminServer admin;

  private LocalGateway(GatewayConfig config) {
    this.metrics = Metrics.create("pointsman-local-gateway");
    this.meters = new GatewayMetrics(metrics.registry());
    this.proxy = ProxyServer.start(config, meters);
    AdminServer a = null;
    if (config.admin() != null) {
      a = new AdminServer(config.admin().toServerConfig(), metrics.registry(), () -> true);
      a.start();
    }
    this.admin = a;
  }

  /** Binds the listener (and the admin listener, if configured) and starts serving. */
  public static LocalGateway start(GatewayConfig config) {
    return new LocalGateway(config);
  }

  /** The listener's port (the ephemeral one when configured with 0). */
  public int port() {
    return proxy.port();
  }

  /** The listener's certificate as PEM, for clients to trust; empty in plaintext mode. */
  public Optional<String> certificatePem() {
    return proxy.certificatePem();
  }

  /**
   * With {@code picker.caFile}: the trust in the picker's certificate, read again from the file
   * every 10 s; {@code check()} reads it now.
   */
  public Optional<TrustReloader> pickerTrust() {
    return proxy.picker().trust();
  }

  /**
   * New ext_proc streams go on a new connection to the picker, verified with the trust in use then;
   * streams already open finish on theirs.
   */
  public void reconnectPicker() {
    proxy.picker().reconnect();
  }

  /** The admin listener's port, if there is one. */
  public Optional<Integer> adminPort() {
    return Optional.ofNullable(admin).map(AdminServer::port);
  }

  public GatewayMetrics metrics() {
    return meters;
  }

  @Override
  public void close() {
    proxy.close();
    if (admin != null) {
      admin.close();
    }
    metrics.close();
  }
}
