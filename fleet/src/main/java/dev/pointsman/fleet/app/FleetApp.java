package dev.pointsman.fleet.app;

import dev.pointsman.extproc.ExternalProcessorService;
import dev.pointsman.fleet.config.ClusterConfig;
import dev.pointsman.fleet.config.FleetConfig;
import dev.pointsman.fleet.extproc.FleetHandler;
import dev.pointsman.fleet.health.ClusterHealth;
import dev.pointsman.fleet.health.Failover;
import dev.pointsman.fleet.k8s.PoolImportWatch;
import dev.pointsman.fleet.routing.Cluster;
import dev.pointsman.fleet.routing.PoolExports;
import dev.pointsman.fleet.summary.SummaryChannels;
import dev.pointsman.fleet.summary.SummaryPoller;
import dev.pointsman.fleet.telemetry.FleetMetrics;
import dev.pointsman.fleet.telemetry.PoolImportMeters;
import dev.pointsman.inference.request.ParserLimits;
import dev.pointsman.inference.request.RequestParser;
import dev.pointsman.picker.replication.Replicator;
import dev.pointsman.picker.summary.HotPrefixes;
import dev.pointsman.picker.telemetry.ReplicationMeters;
import dev.pointsman.runtime.AdminServer;
import dev.pointsman.runtime.GrpcServer;
import dev.pointsman.runtime.Metrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The fleet tier, wired: a summary poller per cluster over mutual TLS, each cluster's health, the
 * ext_proc service that chooses a cluster per request, and the admin listener. Wiring only.
 */
public final class FleetApp implements AutoCloseable {
  private final FleetConfig config;
  private final Metrics metrics = Metrics.create("pointsman-fleet");
  private final ScheduledExecutorService executor;
  private final SummaryChannels channels;
  private final List<SummaryPoller> pollers = new ArrayList<>();
  private final List<Cluster> clusters = new ArrayList<>();
  private final GrpcServer grpc;
  private final AdminServer admin;
  private final Replicator replicator;
  private final PoolImportWatch imports; // null unless poolImports.enabled

  public FleetApp(FleetConfig config) {
    this.config = config;
    this.channels = new SummaryChannels(config.summaries());
    this.executor =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("pointsman-fleet").daemon(true).factory());
    Failover failover = config.failover().toFailover();
    for (ClusterConfig c : config.clusters()) {
      ClusterHealth health = new ClusterHealth(failover);
      SummaryPoller poller =
          new SummaryPoller(
              c.name(),
              channels.open(c),
              health,
              System::nanoTime,
              config.summaries().timeoutMillis(),
              "pointsman-fleet");
      pollers.add(poller);
      clusters.add(new Cluster(c, health, poller::latest));
    }
    FleetMetrics meters = new FleetMetrics(metrics.registry(), clusters, System::nanoTime);
    this.imports =
        config.poolImports().enabled()
            ? PoolImportWatch.connect(
                config.poolImports().namespace(), clusters.stream().map(Cluster::name).toList())
            : null;
    if (imports != null) {
      PoolImportMeters.bind(metrics.registry(), imports);
    }
    var settings = config.extProcSettings();
    // the fleet reads no more of the prompt than its prefix digests cover
    RequestParser parser =
        new RequestParser(
            new ParserLimits(
                settings.maxBodyBytes(),
                HotPrefixes.AFFINITY_BLOCKS * 64,
                ParserLimits.DEFAULT_MAX_DEPTH));
    FleetHandler handler =
        new FleetHandler(
            config,
            clusters,
            () -> ThreadLocalRandom.current().nextDouble(),
            System::nanoTime,
            meters,
            imports == null ? () -> PoolExports.NONE : imports::exports);
    // the replicas share their budgets' use through the pickers' replication engine
    this.replicator =
        config.replication().enabled()
            ? Replicator.forBudgets(
                config.replication(),
                Replicator.defaultMemberName(),
                System::nanoTime,
                handler.budgets())
            : null;
    if (replicator != null) {
      ReplicationMeters.register(metrics.registry(), replicator);
    }
    ExternalProcessorService service =
        new ExternalProcessorService(handler, parser, settings, meters, System::nanoTime);
    this.grpc =
        new GrpcServer(
            config.grpc().toServerConfig(settings),
            List.of(service),
            List.of(ExternalProcessorService.SERVICE_NAME));
    this.admin =
        new AdminServer(config.admin().toServerConfig(), metrics.registry(), this::ready)
            .register("/debug/clusters", this::clustersReport)
            .register("/debug/replication", this::replicationReport)
            .register("/debug/pool-imports", this::poolImportsReport);
  }

  public FleetApp start() {
    admin.start();
    grpc.start();
    if (replicator != null) {
      replicator.start();
    }
    channels.start(executor, GrpcServer.TLS_RELOAD_PERIOD);
    pollers.forEach(p -> p.start(executor, config.summaries().intervalMillis()));
    if (imports != null) {
      imports.start();
    }
    executor.scheduleWithFixedDelay(
        () -> grpc.setReady(ready()), 0, 100, java.util.concurrent.TimeUnit.MILLISECONDS);
    return this;
  }

  /**
   * Ready while some cluster may take traffic, and, with replication, once joining is over (a
   * replica that joins late has the budgets' balances by then).
   */
  public boolean ready() {
    long now = System.nanoTime();
    return (replicator == null || replicator.settled())
        && clusters.stream().anyMatch(c -> c.health().share(now) > 0);
  }

  /** How the replicas share the budgets: off, or the replication state and counters. */
  public Map<String, Object> replicationReport() {
    return Replicator.report(replicator);
  }

  /** Each cluster's state and share now, and its latest summary's sequence. */
  public Map<String, Object> clustersReport() {
    long now = System.nanoTime();
    Map<String, Object> out = new LinkedHashMap<>();
    for (Cluster c : clusters) {
      var r = c.summary().get();
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("state", c.health().state(now).name().toLowerCase(java.util.Locale.ROOT));
      one.put("share", c.health().share(now));
      one.put("drains", c.health().drains());
      one.put("summaryFailuresInARow", c.health().summaryFailuresInARow());
      one.put("gateway", c.config().gateway());
      one.put("tier", c.config().costTier().label());
      one.put("summarySequence", r == null ? null : r.summary().sequence());
      one.put("pools", r == null ? List.of() : r.summary().pools());
      out.put(c.name(), one);
    }
    return out;
  }

  /** Whether InferencePoolImports are read, and what the watch has read and met. */
  public Map<String, Object> poolImportsReport() {
    if (imports == null) {
      return Map.of("state", "disabled");
    }
    return imports.report();
  }

  /** The share of its traffic {@code cluster} may take now (0 drained, 1 healthy). */
  public double share(String cluster) {
    long now = System.nanoTime();
    return clusters.stream()
        .filter(c -> c.name().equals(cluster))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("cluster: '" + cluster + "' (unknown)"))
        .health()
        .share(now);
  }

  /** Requests routed to {@code cluster} since start. */
  public double routed(String cluster) {
    return metrics
        .registry()
        .find("pointsman.fleet.requests")
        .tag("cluster", cluster)
        .counters()
        .stream()
        .mapToDouble(io.micrometer.core.instrument.Counter::count)
        .sum();
  }

  /** The ext_proc listener's port (the ephemeral one when configured with 0). */
  public int grpcPort() {
    return grpc.port();
  }

  /** The ext_proc listener's certificate as PEM, for the gateway in front to trust. */
  public Optional<String> certificatePem() {
    return grpc.certificatePem();
  }

  /** Blocks until the ext_proc listener has closed. */
  public void awaitTermination() throws InterruptedException {
    grpc.awaitTermination();
  }

  /** The admin listener's port ({@code /metrics}, {@code /debug/clusters}). */
  public int adminPort() {
    return admin.port();
  }

  @Override
  public void close() {
    grpc.close();
    if (replicator != null) {
      replicator.close();
    }
    pollers.forEach(SummaryPoller::close);
    if (imports != null) {
      imports.close();
    }
    channels.close();
    executor.shutdownNow();
    admin.close();
    metrics.close();
  }

  static Duration drain() {
    return Duration.ofSeconds(35);
  }
}
