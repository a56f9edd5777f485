package dev.pointsman.gateway.telemetry;

import dev.pointsman.runtime.PemFilesReloader;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * The gateway's meters: requests by status (499 for a client that went away), upstream errors and
 * ext_proc stream errors by kind. Label values are bounded (status codes, a few kinds).
 * Thread-safe.
 */
public final class GatewayMetrics {
  private final MeterRegistry registry;

  public GatewayMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Meters kept in memory only. */
  public static GatewayMetrics inMemory() {
    return new GatewayMetrics(new SimpleMeterRegistry());
  }

  public MeterRegistry registry() {
    return registry;
  }

  public void request(int status) {
    Counter.builder("pointsman_gateway_requests")
        .description("Requests answered by the local gateway, by HTTP status")
        .tag("status", Integer.toString(status))
        .register(registry)
        .increment();
  }

  /** {@code kind}: connect, reset, protocol, no_route, timeout. */
  public void upstreamError(String kind) {
    Counter.builder("pointsman_gateway_upstream_errors")
        .description("Model-server connection failures and resets")
        .tag("kind", kind)
        .register(registry)
        .increment();
  }

  /**
   * A request resent to the next fallback host after its destination refused the connection ({@code
   * reason}: connect), before any byte of it reached a model server.
   */
  public void upstreamRetry(String reason) {
    Counter.builder("pointsman_gateway_upstream_retries")
        .description("Requests resent to a fallback host before any byte reached the first")
        .tag("reason", reason)
        .register(registry)
        .increment();
  }

  /** {@code kind}: failed (stream error), spurious (bad message), closed (ended early). */
  public void extProcError(String kind) {
    Counter.builder("pointsman_gateway_ext_proc_errors")
        .description("ext_proc streams that failed or misbehaved")
        .tag("kind", kind)
        .register(registry)
        .increment();
  }

  /** {@code kind}: reset (the client went away), tls, protocol, internal. */
  public void clientError(String kind) {
    Counter.builder("pointsman_gateway_client_errors")
        .description("Client connections closed on an error, by kind")
        .tag("kind", kind)
        .register(registry)
        .increment();
  }

  /**
   * Counts what {@code reloader} did with changed files, as {@code pointsman_gateway_tls_reloads}
   * with {@code file} ({@code listener}, {@code picker-ca}) and {@code result} ({@code reloaded},
   * {@code rejected}).
   */
  public void tlsReloads(String file, PemFilesReloader reloader) {
    FunctionCounter.builder("pointsman_gateway_tls_reloads", reloader, PemFilesReloader::reloads)
        .description("Changed TLS files read again and used for new connections")
        .tags("file", file, "result", "reloaded")
        .register(registry);
    FunctionCounter.builder("pointsman_gateway_tls_reloads", reloader, PemFilesReloader::failures)
        .description("Changed TLS files read again and used for new connections")
        .tags("file", file, "result", "rejected")
        .register(registry);
  }

  /** {@code reason}: request_headers_timeout, idle. */
  public void connectionClosed(String reason) {
    Counter.builder("pointsman_gateway_connections_closed")
        .description("Client connections the gateway closed on a timeout")
        .tag("reason", reason)
        .register(registry)
        .increment();
  }

  /** The current count of requests answered with {@code status}. */
  public double requests(int status) {
    Counter c =
        registry
            .find("pointsman_gateway_requests")
            .tag("status", Integer.toString(status))
            .counter();
    return c == null ? 0 : c.count();
  }
}
