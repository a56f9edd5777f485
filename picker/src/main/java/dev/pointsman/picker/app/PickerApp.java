package dev.pointsman.picker.app;

import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.inference.model.ModelsConfig;
import dev.pointsman.inference.request.ParserLimits;
import dev.pointsman.inference.request.RequestParser;
import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.picker.config.PoolConfig;
import dev.pointsman.picker.config.RecordingSection;
import dev.pointsman.picker.config.SummarySection;
import dev.pointsman.picker.datastore.Datastore;
import dev.pointsman.picker.datastore.PoolDefinition;
import dev.pointsman.picker.extproc.ExtProcService;
import dev.pointsman.picker.flowcontrol.QueuedBytes;
import dev.pointsman.picker.flowcontrol.TokenBudgets;
import dev.pointsman.picker.kvevents.EnginePrefix;
import dev.pointsman.picker.kvevents.HfPromptTokenizer;
import dev.pointsman.picker.kvevents.KvBlockIndex;
import dev.pointsman.picker.kvevents.KvEventSubscribers;
import dev.pointsman.picker.kvevents.KvEventsSettings;
import dev.pointsman.picker.kvevents.PromptTokenizer;
import dev.pointsman.picker.recording.RecordingRouting;
import dev.pointsman.picker.recording.Salt;
import dev.pointsman.picker.recording.TrafficRecorder;
import dev.pointsman.picker.replication.ReplicationStatus;
import dev.pointsman.picker.replication.Replicator;
import dev.pointsman.picker.routing.FlowGate;
import dev.pointsman.picker.routing.Objectives;
import dev.pointsman.picker.routing.OneHopRouter;
import dev.pointsman.picker.routing.PolicyRegistry;
import dev.pointsman.picker.routing.Routing;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.latency.LatencyModel;
import dev.pointsman.picker.scheduling.prefix.PrecisePrefix;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import dev.pointsman.picker.scrape.ScrapeHttp;
import dev.pointsman.picker.scrape.ScrapeTarget;
import dev.pointsman.picker.scrape.ScrapeTls;
import dev.pointsman.picker.scrape.Scraper;
import dev.pointsman.picker.shadow.ShadowRouting;
import dev.pointsman.picker.summary.ClusterSummary;
import dev.pointsman.picker.summary.HotPrefixRouting;
import dev.pointsman.picker.summary.HotPrefixes;
import dev.pointsman.picker.summary.SummaryBuilder;
import dev.pointsman.picker.summary.SummaryProtocol;
import dev.pointsman.picker.summary.SummaryService;
import dev.pointsman.picker.telemetry.DecisionLog;
import dev.pointsman.picker.telemetry.EndpointDebug;
import dev.pointsman.picker.telemetry.EndpointGauges;
import dev.pointsman.picker.telemetry.FlowMetrics;
import dev.pointsman.picker.telemetry.KvEventsMetrics;
import dev.pointsman.picker.telemetry.PickerMetrics;
import dev.pointsman.picker.telemetry.PoolGauges;
import dev.pointsman.picker.telemetry.PrefixIndexMeters;
import dev.pointsman.picker.telemetry.ReplicationMeters;
import dev.pointsman.picker.telemetry.ScrapeMetrics;
import dev.pointsman.picker.telemetry.ShadowMeters;
import dev.pointsman.runtime.AdminServer;
import dev.pointsman.runtime.CertificateReloader;
import dev.pointsman.runtime.GrpcServer;
import dev.pointsman.runtime.Metrics;
import dev.pointsman.runtime.TrustReloader;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * The endpoint picker, wired: datastore and scraper, scheduler, routing, the ext_proc gRPC service
 * and the admin HTTP server. Wiring only; every part is tested on its own.
 */
public final class PickerApp implements AutoCloseable {
  /**
   * Prompt text kept per request: what the prefix hasher reads ({@link PrefixHasher#DEFAULT},
   * 524,288 characters, about 131k tokens). Public so that the routing bench parses request bodies
   * with the picker's limits.
   */
  public static final int PREFIX_CHARS = PrefixHasher.DEFAULT.maxChars();

  /** Prefix blocks remembered per endpoint (about 500k tokens of prompt); public for the bench. */
  public static final int PREFIX_BLOCKS_PER_ENDPOINT = 31_250;

  /**
   * Which blocks of a prompt the prefix index keeps: the first 512 (32,768 characters, about 8k
   * tokens) every one, then one in 8 (about 128 tokens) and the last. Public for the bench.
   */
  public static final PrefixIndex.Checkpoints PREFIX_CHECKPOINTS =
      new PrefixIndex.Checkpoints(512, 8);

  /** How often flow control looks for expired TTLs and deadlines besides scrapes and releases. */
  static final long FLOW_TICK_MILLIS = 50;

  private final PickerConfig config;
  private final Metrics metrics;
  private final InFlightTracker inFlight = new InFlightTracker();
  private final PrefixIndex prefixIndex;
  private final LatencyModel latencyModel = new LatencyModel();
  private final Datastore datastore;
  private final ScheduledExecutorService scrapeExecutor;
  private final ScrapeTls.Client scrapeTls;
  private final ScrapeHttp scrapeHttp;
  private final Scraper scraper;
  private final PolicyRegistry policies = PolicyRegistry.withDefaults();
  private final DecisionLog decisions;
  private final AtomicReference<ModelResolver> resolver = new AtomicReference<>();
  private final GrpcServer grpc;
  private final AdminServer admin;
  private final List<AutoCloseable> started = new ArrayList<>();
  private final List<HfPromptTokenizer> tokenizers = new ArrayList<>();
  private final PoolSource source;
  private final KvEventSubscribers kvEvents;
  private final Replicator replicator;
  private final ScheduledExecutorService flowExecutor;
  private final TrafficRecorder recorder;
  private ShadowRouting shadow;
  private final SummaryService summary;
  private final GrpcServer summaryServer;
  private volatile boolean draining;

  /**
   * @param config the validated configuration
   * @param boundPool serve only this pool (Endpoint Picker Protocol mode), or null for one hop
   */
  public PickerApp(PickerConfig config, String boundPool) {
    this(config, boundPool, new LocalPoolSource(config, boundPool));
  }

  /**
   * @param config server settings; its pools and models are read only by a local source
   * @param boundPool serve only this pool (Endpoint Picker Protocol mode), or null for one hop
   * @param source where pools, policies and models come from
   */
  public PickerApp(PickerConfig config, String boundPool, PoolSource source) {
    this.config = config;
    this.source = source;
    this.metrics = Metrics.create("pointsman-picker");
    this.prefixIndex =
        new PrefixIndex(
            PREFIX_BLOCKS_PER_ENDPOINT,
            PrefixIndex.Forgetting.TAIL_FIRST,
            config.prefixIndex().maxBlocks(Runtime.getRuntime().maxMemory()),
            PREFIX_CHECKPOINTS);
    PrefixIndexMeters.register(metrics.registry(), prefixIndex);
    this.datastore = new Datastore(config.scrape().datastore(), inFlight, System::nanoTime);
    this.scrapeExecutor = Executors.newScheduledThreadPool(1, daemon("pointsman-scrape"));
    ScrapeTls tls = config.scrape().tls();
    this.scrapeTls = tls.enabled() ? tls.client() : null;
    this.scrapeHttp =
        ScrapeHttp.create(
            Duration.ofMillis(config.scrape().timeoutMillis()),
            scrapeTls == null ? null : scrapeTls.context());
    boolean flowControl = config.flowControl().enabled();
    ScrapeTap scrapeTap = flowControl ? new ScrapeTap(datastore) : null;
    this.scraper =
        new Scraper(
            config.scrape().scraper(),
            scrapeHttp,
            scrapeHttp.executor(),
            System::nanoTime,
            flowControl ? scrapeTap : datastore,
            new ScrapeMetrics(metrics.registry()));
    this.decisions =
        new DecisionLog(
            config.decisionLog(), InstantSource.system(), a -> datastore.report(a).missing());
    resolver.set(ModelResolver.of(new ModelsConfig(List.of(), null)));
    Scheduler scheduler =
        new Scheduler(prefixIndex, inFlight, PrefixHasher.DEFAULT, System::nanoTime, latencyModel);
    this.kvEvents = kvEvents(config, datastore, metrics.registry());
    scheduler.usePrecisePrefix(precisePrefix(config, kvEvents.index()));
    datastore.addMembershipListener(
        m -> {
          scraper.setTargets(m.targets());
          scheduler.retain(m.addresses());
        });
    datastore.addCacheLossListener(
        (address, reason) -> {
          scheduler.forgetCaches(address);
          Counter.builder("pointsman.endpoint.cache.resets")
              .description(
                  "Engines found with their caches emptied in place (restart: counters went"
                      + " backwards; wake: out of sleep mode); the picker forgot what they held")
              .tag("reason", reason)
              .register(metrics.registry())
              .increment();
        });
    // budgets are shared through the replicas' state: made before the replicator that carries them
    TokenBudgets budgets = config.flowControl().tokenBudgets(System::nanoTime);
    this.replicator =
        config.replication().enabled()
            ? new Replicator(
                config.replication(),
                Replicator.defaultMemberName(),
                scheduler,
                System::nanoTime,
                budgets)
            : null;
    Gauge.builder("pointsman.latency.model.mape", latencyModel, LatencyModel::mape)
        .description("Mean absolute percentage error of the learned TTFT predictions, recent")
        .register(metrics.registry());
    Gauge.builder("pointsman.tpot.model.mape", scheduler.tpotModel(), LatencyModel::mape)
        .description(
            "Mean absolute percentage error of the learned time-per-output-token predictions,"
                + " recent")
        .register(metrics.registry());
    OneHopRouter router =
        new OneHopRouter(
            resolver::get,
            datastore::snapshot,
            policies,
            scheduler,
            new Objectives(config.objectives()),
            ThreadLocalRandom::current,
            boundPool);
    Routing routing = router;
    this.flowExecutor =
        flowControl ? Executors.newScheduledThreadPool(1, daemon("pointsman-flow")) : null;
    if (flowControl) {
      FlowMetrics flowMetrics = new FlowMetrics(metrics.registry());
      flowMetrics.bindBudgets(budgets);
      FlowGate gate =
          new FlowGate(
              router,
              config.flowControl().limits(),
              flowExecutor,
              System::nanoTime,
              flowMetrics,
              budgets,
              new QueuedBytes(
                  config.flowControl().queuedBytesTotal(Runtime.getRuntime().maxMemory())));
      scrapeTap.after(gate::poke);
      // TTLs and deadlines run out between scrapes too
      flowExecutor.scheduleWithFixedDelay(
          gate::pump,
          FLOW_TICK_MILLIS,
          FLOW_TICK_MILLIS,
          java.util.concurrent.TimeUnit.MILLISECONDS);
      routing = gate;
    }
    this.recorder = recorder(config.recording());
    routing = adoption(routing, scheduler, config, recorder);
    SummarySection summaryConfig = config.summary();
    if (summaryConfig.enabled()) {
      HotPrefixes hot = new HotPrefixes(summaryConfig.hotPrefixes());
      datastore.addMembershipListener(m -> hot.retain(datastore.pools()));
      routing = new HotPrefixRouting(routing, hot);
      this.summary =
          new SummaryService(
              new SummaryBuilder(
                  summaryConfig.cluster(),
                  summaryConfig.referencePromptTokens(),
                  summaryConfig.intervalMillis(),
                  new SummaryBuilder.Sources(
                      datastore::pools,
                      datastore::snapshot,
                      pool -> policies.policy(pool).saturation(),
                      resolver::get),
                  scheduler,
                  hot),
              InstantSource.system());
      this.summaryServer =
          new GrpcServer(
              summaryConfig.toServerConfig(),
              List.of(summary),
              List.of(SummaryProtocol.SERVICE_NAME));
    } else {
      this.summary = null;
      this.summaryServer = null;
    }
    io.grpc.BindableService service =
        ExtProcService.create(
            routing,
            new RequestParser(
                new ParserLimits(config.extProcSettings().maxBodyBytes(), PREFIX_CHARS, 64)),
            config.extProcSettings(),
            new PickerMetrics(metrics.registry(), decisions),
            System::nanoTime,
            config.pickerOptions(),
            config.flowControl().headers());
    this.grpc =
        new GrpcServer(
            config.grpc().toServerConfig(config.extProcSettings()),
            List.of(service),
            List.of(ExtProcService.SERVICE_NAME));
    FunctionCounter.builder("pointsman.tls.reloads", grpc, GrpcServer::tlsReloadCount)
        .description("Certificates reloaded from changed files and used for new connections")
        .tag("result", "reloaded")
        .register(metrics.registry());
    FunctionCounter.builder("pointsman.tls.reloads", grpc, GrpcServer::tlsReloadFailures)
        .description(
            "Changed certificate files not used (unreadable, or key and certificate apart)")
        .tag("result", "rejected")
        .register(metrics.registry());
    if (scrapeTls != null && scrapeTls.trust() != null) {
      TrustReloader caFile = scrapeTls.trust();
      FunctionCounter.builder("pointsman.scrape.tls.reloads", caFile, TrustReloader::reloads)
          .description("The model servers' CA file read again after a change, in use from then on")
          .tag("result", "reloaded")
          .register(metrics.registry());
      FunctionCounter.builder("pointsman.scrape.tls.reloads", caFile, TrustReloader::failures)
          .description("The model servers' CA file changed but holding no usable certificate")
          .tag("result", "rejected")
          .register(metrics.registry());
    }
    this.admin =
        new AdminServer(config.admin().toServerConfig(), metrics.registry(), this::ready)
            .register("/debug/decisions", decisions::recent)
            .register("/debug/endpoints", new EndpointDebug(datastore)::endpoints)
            .register("/debug/replication", this::replication)
            .register("/debug/shadow", this::shadowReport)
            .readyDetail(() -> replicator == null ? "" : replicator.status().detail());
    if (replicator != null) {
      ReplicationMeters.register(metrics.registry(), replicator);
    }
    PoolGauges gauges = new PoolGauges(metrics.registry(), datastore, inFlight);
    datastore.addMembershipListener(m -> datastore.pools().forEach(gauges::register));
    EndpointGauges endpointGauges = new EndpointGauges(metrics.registry(), datastore);
    datastore.addMembershipListener(m -> endpointGauges.update());
    source.bindMetrics(metrics.registry());
    source.start(datastore, policies, resolver, flowControl ? budgets : null);
  }

  /** The traffic recorder of {@code recording}, or null when it is off. */
  private TrafficRecorder recorder(RecordingSection recording) {
    if (!recording.enabled()) {
      return null;
    }
    byte[] salt = Salt.load(recording.salt(), Salt.fileFor(recording.path()), new SecureRandom());
    TrafficRecorder r;
    try {
      r =
          new TrafficRecorder(
              recording.path(),
              recording.maxBytes(),
              recording.maxFiles(),
              recording.queueCapacity(),
              salt,
              daemon("pointsman-recorder"));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(
          "recording.file: " + recording.file() + " cannot be written", e);
    }
    FunctionCounter.builder("pointsman.recording.lines", r, TrafficRecorder::written)
        .description("Requests written to the traffic recording")
        .register(metrics.registry());
    FunctionCounter.builder("pointsman.recording.dropped", r, TrafficRecorder::dropped)
        .description("Requests not recorded: the writer's queue was full or it had stopped")
        .register(metrics.registry());
    return r;
  }

  /** Routing with shadow mode and the recorder around it, as configured. */
  private Routing adoption(
      Routing router, Scheduler scheduler, PickerConfig config, TrafficRecorder recorder) {
    Routing routing = router;
    if (config.shadow().enabled()) {
      shadow = new ShadowRouting(routing, scheduler.inFlight());
      ShadowMeters.register(metrics.registry(), shadow);
      routing = shadow;
    }
    if (recorder != null) {
      routing =
          new RecordingRouting(
              routing, recorder, System::nanoTime, config.recording().tenantHeader());
    }
    return routing;
  }

  /** Starts serving. Readiness follows the datastore: true once every pool has been scraped. */
  public PickerApp start() {
    if (replicator != null) {
      replicator.start();
    }
    admin.start();
    started.add(admin);
    grpc.start();
    started.add(grpc);
    scrapeExecutor.scheduleWithFixedDelay(
        () -> grpc.setReady(ready()), 0, 100, java.util.concurrent.TimeUnit.MILLISECONDS);
    if (scrapeTls != null && scrapeTls.trust() != null) {
      // a CA bundle rotated in its Secret is trusted from the next connection on
      scrapeTls.trust().start(scrapeExecutor, GrpcServer.TLS_RELOAD_PERIOD);
    }
    if (summaryServer != null) {
      summary.refresh();
      summaryServer.start();
      started.add(summaryServer);
      scrapeExecutor.scheduleWithFixedDelay(
          () -> {
            summary.refresh();
            summaryServer.setReady(ready());
          },
          config.summary().intervalMillis(),
          config.summary().intervalMillis(),
          java.util.concurrent.TimeUnit.MILLISECONDS);
    }
    return this;
  }

  /**
   * Ready once every pool has been scraped and, with replication on, joining is over (a snapshot
   * fetched from the peers, or given up on: then it serves cold); no longer from the start of
   * shutdown on. Replication's state beyond that never affects readiness.
   */
  public boolean ready() {
    return !draining
        && source.ready()
        && datastore.ready()
        && (replicator == null || replicator.settled());
  }

  /** Where this replica stands with its peers ({@code off} when replication is off). */
  public ReplicationStatus replicationStatus() {
    return replicator == null ? ReplicationStatus.OFF : replicator.status();
  }

  private Object replication() {
    return Replicator.report(replicator);
  }

  private Object shadowReport() {
    return shadow == null ? java.util.Map.of("enabled", false) : shadow.report();
  }

  public int grpcPort() {
    return grpc.port();
  }

  /** The plaintext health-only port ({@code grpc.healthPort}); empty when not configured. */
  public java.util.OptionalInt healthPort() {
    return grpc.healthPort();
  }

  /** The cluster summary's listener port ({@code summary.port}); empty when it is off. */
  public java.util.OptionalInt summaryPort() {
    return summaryServer == null
        ? java.util.OptionalInt.empty()
        : java.util.OptionalInt.of(summaryServer.port());
  }

  /** The summary served now; empty when it is off. */
  public Optional<ClusterSummary> summary() {
    return summary == null ? Optional.empty() : Optional.ofNullable(summary.latest());
  }

  public int adminPort() {
    return admin.port();
  }

  public Optional<String> certificatePem() {
    return grpc.certificatePem();
  }

  /**
   * Checks the certificate files now ({@code grpc.tls: files}), as the periodic check does; {@code
   * UNCHANGED} in the other modes.
   */
  public CertificateReloader.Outcome reloadTls() {
    return grpc.reloadTls();
  }

  public Datastore datastore() {
    return datastore;
  }

  public PolicyRegistry policies() {
    return policies;
  }

  /**
   * The model resolver in force; replace it (e.g. from ModelRoutes or discovery) and the next
   * request uses the new one.
   */
  public AtomicReference<ModelResolver> resolver() {
    return resolver;
  }

  public InFlightTracker inFlight() {
    return inFlight;
  }

  public List<ScrapeTarget> scrapeTargets() {
    return List.copyOf(scraper.targets());
  }

  /** Blocks until the gRPC server has terminated. */
  public void awaitTermination() throws InterruptedException {
    grpc.awaitTermination();
  }

  /**
   * Shuts down gracefully, as on SIGTERM: reports not ready at once (gRPC health and {@code
   * /readyz}) while every stream, new ones included, is still served for {@code
   * shutdown.graceSeconds}, so the proxy moves away without a refused stream; then the listener
   * closes, streams in flight get up to {@code grpc.drainSeconds}, and everything else stops.
   */
  public void drainAndClose() {
    drainAndClose(GrpcServer.Pause.SLEEP);
  }

  /**
   * {@link #drainAndClose()}, the grace period waited by {@code pause} (so tests move no clock).
   */
  public void drainAndClose(GrpcServer.Pause pause) {
    draining = true;
    if (summaryServer != null) {
      summaryServer.close(); // the fleet tier sees the summary go and moves away first
    }
    grpc.drainAndClose(config.shutdown().grace(), pause);
    closeRest();
  }

  /** Stops at once, without the grace period: the listener closes, streams in flight drain. */
  @Override
  public void close() {
    draining = true;
    grpc.close();
    closeRest();
  }

  /**
   * Subscribes to the KV-cache events of the endpoints of every pool whose {@code kvEvents} is on,
   * following membership. Only local pools configure it.
   */
  private static KvEventSubscribers kvEvents(
      PickerConfig config,
      Datastore datastore,
      io.micrometer.core.instrument.MeterRegistry registry) {
    Map<String, KvEventsSettings> settings = new HashMap<>();
    int bound = KvEventsSettings.DEFAULT_MAX_BLOCKS;
    for (PoolConfig p : config.pools()) {
      settings.put(p.name(), p.kvEvents());
      if (p.kvEvents().enabled()) {
        bound = Math.max(bound, p.kvEvents().maxBlocksPerEndpoint());
      }
    }
    KvEventsMetrics meters = new KvEventsMetrics(registry);
    KvEventSubscribers subscribers =
        new KvEventSubscribers(
            new KvBlockIndex(
                bound, config.prefixIndex().maxEngineBlocks(Runtime.getRuntime().maxMemory())),
            meters,
            System::nanoTime);
    datastore.addMembershipListener(
        m -> {
          Set<String> pools = new HashSet<>(datastore.pools());
          for (String pool : pools) {
            KvEventsSettings s = settings.getOrDefault(pool, KvEventsSettings.OFF);
            subscribers.update(
                pool, s, datastore.pool(pool).map(PoolDefinition::endpoints).orElse(List.of()));
            if (s.enabled()) {
              meters.register(pool, subscribers);
            }
          }
          subscribers.retainPools(pools);
        });
    return subscribers;
  }

  /**
   * The precise prefix matcher of each pool whose {@code kvEvents.scoring} is on, tokenizing with
   * the pool's {@code kvEvents.tokenizer}; a pool without one matches every request by the
   * approximate index. The tokenizers are closed with the picker.
   */
  private Function<String, PrecisePrefix> precisePrefix(PickerConfig config, KvBlockIndex index) {
    Map<String, PrecisePrefix> byPool = new HashMap<>();
    for (PoolConfig p : config.pools()) {
      KvEventsSettings s = p.kvEvents();
      if (s.enabled() && s.scoring()) {
        PromptTokenizer tokenizer = request -> null;
        if (s.tokenizer() != null) {
          HfPromptTokenizer hf = HfPromptTokenizer.open(Path.of(s.tokenizer()));
          tokenizers.add(hf);
          tokenizer = hf;
        }
        byPool.put(p.name(), new EnginePrefix(index, tokenizer, s.offloadedCredit()));
      }
    }
    return byPool::get;
  }

  /** The engines' KV-event subscriptions and the precise prefix index they build. */
  public KvEventSubscribers kvEvents() {
    return kvEvents;
  }

  private void closeRest() {
    if (summaryServer != null) {
      summaryServer.close();
    }
    if (recorder != null) {
      recorder.close();
    }
    kvEvents.close();
    tokenizers.forEach(HfPromptTokenizer::close);
    if (replicator != null) {
      replicator.close();
    }
    source.close();
    scraper.close();
    scrapeHttp.close();
    if (scrapeTls != null) {
      scrapeTls.close();
    }
    scrapeExecutor.shutdownNow();
    if (flowExecutor != null) {
      flowExecutor.shutdownNow();
    }
    admin.close();
    metrics.close();
  }

  static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
