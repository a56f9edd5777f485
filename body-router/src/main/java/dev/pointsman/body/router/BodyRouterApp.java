package dev.pointsman.body.router;

import dev.pointsman.extproc.ExternalProcessorService;
import dev.pointsman.inference.model.ModelDiscovery;
import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.inference.request.ParserLimits;
import dev.pointsman.inference.request.RequestParser;
import dev.pointsman.runtime.AdminServer;
import dev.pointsman.runtime.GrpcServer;
import dev.pointsman.runtime.Metrics;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The standalone body-based router, wired: for gateways whose HTTPRoutes choose the pool, it reads
 * each request body's model and sets the headers those routes match on. Wiring only.
 */
public final class BodyRouterApp implements AutoCloseable {
  private final Metrics metrics = Metrics.create("pointsman-body-router");
  private final AtomicReference<ModelResolver> resolver = new AtomicReference<>();
  private final ScheduledExecutorService executor;
  private final ModelDiscovery discovery;
  private final Duration discoveryInterval;
  private final GrpcServer grpc;
  private final AdminServer admin;

  public BodyRouterApp(BodyRouterConfig config) {
    resolver.set(ModelResolver.of(config.modelsConfig()));
    this.executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "pointsman-discovery");
              t.setDaemon(true);
              return t;
            });
    this.discovery =
        new ModelDiscovery(
            config.discoverySources(),
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build(),
            Duration.ofSeconds(5),
            resolver);
    this.discoveryInterval = Duration.ofSeconds(config.discoveryIntervalSeconds());
    BodyRouterMetrics meters = new BodyRouterMetrics(metrics.registry());
    var settings = config.extProcSettings();
    ExternalProcessorService service =
        new ExternalProcessorService(
            new BodyRouterHandler(resolver::get, meters),
            new RequestParser(
                new ParserLimits(
                    settings.maxBodyBytes(),
                    ParserLimits.DEFAULT_MAX_PREFIX_CHARS,
                    ParserLimits.DEFAULT_MAX_DEPTH)),
            settings,
            meters,
            System::nanoTime);
    this.grpc =
        new GrpcServer(
            config.grpc().toServerConfig(settings),
            List.of(service),
            List.of(ExternalProcessorService.SERVICE_NAME));
    this.admin = new AdminServer(config.admin().toServerConfig(), metrics.registry(), this::ready);
  }

  public BodyRouterApp start() {
    admin.start();
    grpc.start();
    discovery.start(executor, discoveryInterval);
    grpc.setReady(true);
    return this;
  }

  /** Ready once some model can be resolved. */
  public boolean ready() {
    return !resolver.get().servedModels().isEmpty();
  }

  public int grpcPort() {
    return grpc.port();
  }

  public int adminPort() {
    return admin.port();
  }

  public Optional<String> certificatePem() {
    return grpc.certificatePem();
  }

  public AtomicReference<ModelResolver> resolver() {
    return resolver;
  }

  public void awaitTermination() throws InterruptedException {
    grpc.awaitTermination();
  }

  @Override
  public void close() {
    grpc.close();
    discovery.close();
    executor.shutdownNow();
    admin.close();
    metrics.close();
  }
}
