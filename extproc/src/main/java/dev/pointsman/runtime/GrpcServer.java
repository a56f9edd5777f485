package dev.pointsman.runtime;

import io.grpc.BindableService;
import io.grpc.Server;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Netty gRPC server with the standard health service, TLS and a graceful, bounded close.
 *
 * <p>Health: {@code ""} and {@code liveness} are SERVING once started (Kubernetes' gRPC probe asks
 * for {@code ""} by default, so a pod that is merely not ready is not restarted); {@code readiness}
 * and the caller's service names (e.g. {@code envoy.service.ext_proc.v3.ExternalProcessor}) follow
 * {@link #setReady}. Readiness is NOT_SERVING from {@link #drainAndClose} on (while streams are
 * still served), everything from {@link #close()} on.
 *
 * <p>Health port: with {@link GrpcServerConfig#healthPort()} set, a second listener on that port,
 * always plaintext, serves the same health statuses and nothing else (any other service answers
 * UNIMPLEMENTED), for Kubernetes' gRPC probes, which cannot verify TLS. It closes with the server.
 *
 * <p>TLS from files ({@link Tls.Mode#FILES}) is read again every {@link #TLS_RELOAD_PERIOD} (or on
 * {@link #reloadTls()}) and a changed, valid certificate is used for new connections from then on;
 * open connections and their streams keep theirs. See {@link CertificateReloader}.
 *
 * <p>Executor: unless the caller injects one, callbacks run on a fixed pool of daemon platform
 * threads, one per core and at least two. Handlers never block, so a small bounded pool suffices;
 * virtual threads buy nothing for non-blocking work, and keeping callbacks off the Netty event
 * loops means one slow handler cannot stall the I/O of every stream on a connection. The server
 * owns the executor and shuts it down at close. Its threads (like Netty's) are daemons: the main
 * thread should block in {@link #awaitTermination()}.
 *
 * <p>Thread-safe.
 */
public final class GrpcServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GrpcServer.class);
  private static final List<String> LIVENESS_NAMES = List.of("", "liveness");
  private static final long FORCED_STOP_WAIT_SECONDS = 5;

  /** How often certificate files are read for changes. */
  public static final Duration TLS_RELOAD_PERIOD = Duration.ofSeconds(10);

  private final GrpcServerConfig config;
  private final List<BindableService> services;
  private final List<String> readinessNames;
  private final ExecutorService executor;
  private final HealthStatusManager health = new HealthStatusManager();
  private volatile Server server;
  private volatile Server healthServer;
  private volatile ServerTls tls;
  private volatile ScheduledExecutorService tlsReloads;
  private boolean closed;
  private boolean draining;

  /**
   * A server, not yet started.
   *
   * @param services the application services
   * @param healthServiceNames extra health service names whose status follows readiness
   * @param executor runs call callbacks; shut down by {@link #close()}
   */
  public GrpcServer(
      GrpcServerConfig config,
      List<BindableService> services,
      List<String> healthServiceNames,
      ExecutorService executor) {
    this.config = Objects.requireNonNull(config, "config");
    this.services = List.copyOf(services);
    this.readinessNames =
        Stream.concat(Stream.of("readiness"), healthServiceNames.stream()).distinct().toList();
    this.executor = Objects.requireNonNull(executor, "executor");
    setAll(ServingStatus.NOT_SERVING);
  }

  /** A server, not yet started, with the default executor. */
  public GrpcServer(
      GrpcServerConfig config, List<BindableService> services, List<String> healthServiceNames) {
    this(config, services, healthServiceNames, DaemonPools.fixed("grpc", DaemonPools.perCore()));
  }

  /** Binds and starts serving; liveness becomes SERVING, readiness stays as set. */
  public synchronized GrpcServer start() {
    if (server != null || closed) {
      throw new IllegalStateException("grpc server: already started or closed (expected new)");
    }
    ServerTls resolved = ServerTls.resolve(config.tls());
    NettyServerBuilder builder =
        NettyServerBuilder.forAddress(new InetSocketAddress(config.host(), config.port()))
            .executor(executor)
            .maxInboundMessageSize(config.maxInboundMessageBytes())
            .permitKeepAliveTime(config.permitKeepAliveTime().toNanos(), TimeUnit.NANOSECONDS)
            .permitKeepAliveWithoutCalls(true)
            .addService(health.getHealthService());
    services.forEach(builder::addService);
    resolved.sslContext().ifPresent(builder::sslContext);
    try {
      server = builder.build().start();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "grpc: cannot listen on " + config.host() + ":" + config.port() + " (" + e + ")", e);
    }
    if (config.healthPort() != GrpcServerConfig.NO_HEALTH_PORT) {
      healthServer = startHealthServer(server);
    }
    tls = resolved;
    resolved
        .reloader()
        .ifPresent(
            reloader -> {
              tlsReloads =
                  Executors.newSingleThreadScheduledExecutor(
                      Thread.ofPlatform().name("grpc-tls-reload").daemon(true).factory());
              reloader.start(tlsReloads, TLS_RELOAD_PERIOD);
              resolved.clientTrust().ifPresent(t -> t.start(tlsReloads, TLS_RELOAD_PERIOD));
            });
    LIVENESS_NAMES.forEach(name -> health.setStatus(name, ServingStatus.SERVING));
    LOG.info("grpc listening on {}:{} tls={}", config.host(), port(), config.tls().mode());
    if (healthServer != null) {
      LOG.info("grpc health (plaintext) on {}:{}", config.host(), healthServer.getPort());
    }
    return this;
  }

  private Server startHealthServer(Server main) {
    try {
      return NettyServerBuilder.forAddress(
              new InetSocketAddress(config.host(), config.healthPort()))
          .executor(executor)
          .maxInboundMessageSize(4096)
          .addService(health.getHealthService())
          .build()
          .start();
    } catch (IOException e) {
      main.shutdownNow();
      throw new UncheckedIOException(
          "grpc.healthPort: cannot listen on "
              + config.host()
              + ":"
              + config.healthPort()
              + " ("
              + e
              + ")",
          e);
    }
  }

  /** The plaintext health-only port; empty when none is configured. */
  public java.util.OptionalInt healthPort() {
    started();
    Server h = healthServer;
    return h == null ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(h.getPort());
  }

  /** The bound port (the ephemeral one when configured with 0). */
  public int port() {
    return started().getPort();
  }

  /** The server's certificate chain as PEM (what a client trusts); empty in plaintext mode. */
  public Optional<String> certificatePem() {
    started();
    return tls.certificatePem().get();
  }

  /**
   * Reads the certificate files now (as the periodic check does) and uses a changed, valid pair for
   * new connections; {@code UNCHANGED} unless in FILES mode.
   */
  public CertificateReloader.Outcome reloadTls() {
    started();
    return tls.reloader()
        .map(CertificateReloader::check)
        .orElse(CertificateReloader.Outcome.UNCHANGED);
  }

  /** Certificates reloaded since start (FILES mode). */
  public long tlsReloadCount() {
    ServerTls current = tls;
    return current == null ? 0 : current.reloader().map(CertificateReloader::reloads).orElse(0L);
  }

  /** Changed certificate files that were not used (unreadable, or key and certificate apart). */
  public long tlsReloadFailures() {
    ServerTls current = tls;
    return current == null ? 0 : current.reloader().map(CertificateReloader::failures).orElse(0L);
  }

  /** Sets {@code readiness} and the extra health service names SERVING or NOT_SERVING. */
  public void setReady(boolean ready) {
    var status = ready ? ServingStatus.SERVING : ServingStatus.NOT_SERVING;
    synchronized (this) {
      if (!draining && !closed) {
        readinessNames.forEach(name -> health.setStatus(name, status));
      }
    }
  }

  /** Waits out a grace period; injected so tests need not wait for time to pass. */
  @FunctionalInterface
  public interface Pause {
    void await(Duration duration) throws InterruptedException;

    Pause SLEEP = Thread::sleep;
  }

  /**
   * Graceful shutdown in two steps, so the proxy moves away before any stream is refused: first
   * {@code readiness} and the extra service names turn NOT_SERVING (liveness stays SERVING) while
   * the server keeps accepting and serving streams for {@code grace}, waited by {@code pause}; then
   * {@link #close()}. From the first step on, {@link #setReady} no longer changes anything.
   */
  public void drainAndClose(Duration grace, Pause pause) {
    synchronized (this) {
      if (closed) {
        return;
      }
    }
    stopReadiness();
    if (grace.isPositive()) {
      try {
        LOG.info("grpc draining: not ready, still serving for {}", grace);
        pause.await(grace);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    close();
  }

  /** {@link #drainAndClose(Duration, Pause)}, sleeping out the grace period. */
  public void drainAndClose(Duration grace) {
    drainAndClose(grace, Pause.SLEEP);
  }

  /**
   * Reports NOT_SERVING on {@code readiness} and the extra service names from now on, while serving
   * on: the first step of a drain.
   */
  public void stopReadiness() {
    synchronized (this) {
      draining = true;
      readinessNames.forEach(name -> health.setStatus(name, ServingStatus.NOT_SERVING));
    }
  }

  /** Blocks until the server has terminated (after {@link #close()}). */
  public void awaitTermination() throws InterruptedException {
    started().awaitTermination();
  }

  /**
   * Marks every health status NOT_SERVING, stops accepting calls, waits up to the drain timeout for
   * in-flight calls, then cancels the rest. Idempotent.
   */
  @Override
  public void close() {
    Server running;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      running = server;
    }
    setAll(ServingStatus.NOT_SERVING);
    health.enterTerminalState();
    if (tlsReloads != null) {
      tlsReloads.shutdownNow();
    }
    try {
      if (running != null) {
        drain(running);
      }
    } finally {
      Server h = healthServer;
      if (h != null) {
        h.shutdownNow();
      }
      executor.shutdown();
    }
  }

  private void drain(Server running) {
    running.shutdown();
    try {
      if (!running.awaitTermination(config.drainTimeout().toNanos(), TimeUnit.NANOSECONDS)) {
        LOG.warn("grpc calls still in flight after {}; cancelling them", config.drainTimeout());
        running.shutdownNow();
        running.awaitTermination(FORCED_STOP_WAIT_SECONDS, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running.shutdownNow();
    }
  }

  private void setAll(ServingStatus status) {
    LIVENESS_NAMES.forEach(name -> health.setStatus(name, status));
    readinessNames.forEach(name -> health.setStatus(name, status));
  }

  private Server started() {
    Server current = server;
    if (current == null) {
      throw new IllegalStateException("grpc server: not started (expected start() first)");
    }
    return current;
  }
}
