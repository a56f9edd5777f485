package dev.pointsman.picker.extproc;

import dev.pointsman.extproc.Completion;
import dev.pointsman.extproc.ExtProcSettings;
import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.inference.model.ModelEntry;
import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.inference.model.ModelsConfig;
import dev.pointsman.inference.model.PoolTarget;
import dev.pointsman.inference.request.ParserLimits;
import dev.pointsman.inference.request.RequestParser;
import dev.pointsman.picker.routing.Objectives;
import dev.pointsman.picker.routing.OneHopRouter;
import dev.pointsman.picker.routing.PolicyRegistry;
import dev.pointsman.picker.routing.RouteInput;
import dev.pointsman.picker.routing.RouteOutcome;
import dev.pointsman.picker.routing.Routing;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.EndpointState;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.PoolSnapshot;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** A picker wired from real parts, with in-memory pools, served in-process for protocol tests. */
final class Fixture implements AutoCloseable {
  static final String MODEL = "llama-3-8b";

  /** A model whose requests may be shed (a ModelRoute's {@code criticality: Sheddable}). */
  static final String SHEDDABLE_MODEL = "batch-8b";

  static final String ADAPTER = "sql-lora";

  final InFlightTracker inFlight = new InFlightTracker();
  final Map<String, PoolSnapshot> pools = new ConcurrentHashMap<>();
  final RecordingObserver observer = new RecordingObserver();
  final AtomicLong clock = new AtomicLong(1_000_000_000L);
  final Routing routing;
  final Scheduler scheduler;
  final PolicyRegistry policies = PolicyRegistry.withDefaults();
  private final Server server;
  final ManagedChannel channel;

  Fixture(ExtProcSettings settings) throws IOException {
    this(settings, null);
  }

  Fixture(ExtProcSettings settings, Routing override) throws IOException {
    this(settings, override, ExtProcObserver.NOOP);
  }

  /** A fixture whose observer also reports to {@code also} (e.g. the real metrics). */
  Fixture(ExtProcSettings settings, Routing override, ExtProcObserver also) throws IOException {
    this(settings, override, also, PickerOptions.DEFAULTS);
  }

  /** With {@code defaultModel} used for requests that name no model. */
  Fixture(ExtProcSettings settings, Routing override, String defaultModel) throws IOException {
    this(settings, override, ExtProcObserver.NOOP, PickerOptions.DEFAULTS, defaultModel);
  }

  Fixture(ExtProcSettings settings, Routing override, ExtProcObserver also, PickerOptions options)
      throws IOException {
    this(settings, override, also, options, null);
  }

  Fixture(
      ExtProcSettings settings,
      Routing override,
      ExtProcObserver also,
      PickerOptions options,
      String defaultModel)
      throws IOException {
    this(settings, override, also, options, defaultModel, (r, tracker) -> r);
  }

  /**
   * With the real routing wrapped by {@code around}, which also gets the in-flight tracker (a
   * decorator such as shadow mode).
   */
  Fixture(
      ExtProcSettings settings,
      Routing override,
      ExtProcObserver also,
      PickerOptions options,
      String defaultModel,
      java.util.function.BiFunction<Routing, InFlightTracker, Routing> around)
      throws IOException {
    observer.also = also;
    pools.put("gpu-a", pool("gpu-a", "10.0.0.1:8000", "10.0.0.2:8000"));
    pools.put("empty", PoolSnapshot.empty("empty"));
    ModelResolver resolver =
        ModelResolver.of(
            new ModelsConfig(
                List.of(
                    new ModelEntry(MODEL, List.of("llama"), null, List.of(PoolTarget.of("gpu-a"))),
                    ModelEntry.adapter(ADAPTER, MODEL),
                    new ModelEntry(
                        SHEDDABLE_MODEL, List.of(), null, List.of(PoolTarget.of("gpu-a")), true),
                    ModelEntry.base("orphan", List.of(PoolTarget.of("empty")))),
                defaultModel));
    scheduler = new Scheduler(new PrefixIndex(1000), inFlight, PrefixHasher.DEFAULT, clock::get);
    routing =
        override != null
            ? override
            : around.apply(
                new OneHopRouter(
                    () -> resolver,
                    name -> pools.getOrDefault(name, PoolSnapshot.empty(name)),
                    policies,
                    scheduler,
                    new Objectives(List.of(new Objectives.Objective("batch", -1))),
                    () -> new SplittableRandom(7),
                    null),
                inFlight);
    String name = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(
                ExtProcService.create(
                    routing,
                    new RequestParser(new ParserLimits(settings.maxBodyBytes(), 64 << 10, 64)),
                    settings,
                    observer,
                    clock::get,
                    options))
            .build()
            .start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
  }

  static PoolSnapshot pool(String name, String... addresses) {
    return new PoolSnapshot(
        name,
        java.util.Arrays.stream(addresses)
            .map(a -> new EndpointState(new Endpoint(a, name), idle(), true))
            .toList());
  }

  /** Pool {@code gpu-a} becomes one saturated endpoint: sheddable requests are shed there. */
  void saturateGpuA() {
    pools.put(
        "gpu-a",
        new PoolSnapshot(
            "gpu-a",
            List.of(new EndpointState(new Endpoint("10.0.0.1:8000", "gpu-a"), saturated(), true))));
  }

  static EndpointMetrics idle() {
    return new EndpointMetrics(0, 0, 0.1, 100_000, Set.of(), Set.of(), 4, Double.NaN, 0);
  }

  static EndpointMetrics saturated() {
    return new EndpointMetrics(50, 200, 0.95, 100_000, Set.of(), Set.of(), 4, Double.NaN, 0);
  }

  /** Gives pool {@code gpu-a} a default policy that also returns {@code n} fallbacks. */
  void fallbacks(int n) {
    policies.set(
        "gpu-a",
        dev.pointsman.picker.scheduling.Plugins.build(
            new dev.pointsman.picker.scheduling.PolicyConfig(null, null, null, n, null)));
  }

  EnvoyReplay stream() {
    return EnvoyReplay.open(channel);
  }

  @Override
  public void close() throws InterruptedException {
    channel.shutdownNow();
    server.shutdownNow();
    server.awaitTermination(5, TimeUnit.SECONDS);
  }

  /** Records what the service reports. */
  static final class RecordingObserver implements ExtProcObserver {
    final List<RouteOutcome> decisions = new CopyOnWriteArrayList<>();
    final List<String> rejected = new CopyOnWriteArrayList<>();
    final List<Completion> completions = new CopyOnWriteArrayList<>();
    final List<String> ends = new CopyOnWriteArrayList<>();
    final java.util.concurrent.atomic.AtomicInteger ignoredBalancerChoices =
        new java.util.concurrent.atomic.AtomicInteger();
    volatile ExtProcObserver also = ExtProcObserver.NOOP;

    @Override
    public void onDecision(RouteInput input, RouteOutcome outcome, long decisionNanos) {
      decisions.add(outcome);
      also.onDecision(input, outcome, decisionNanos);
    }

    @Override
    public void onRejected(String reason, int httpStatus) {
      rejected.add(reason + ":" + httpStatus);
      also.onRejected(reason, httpStatus);
    }

    @Override
    public void onCompleted(RouteOutcome.Routed routed, Completion completion) {
      completions.add(completion);
      also.onCompleted(routed, completion);
    }

    @Override
    public void onStreamEnd(String how) {
      ends.add(how);
      also.onStreamEnd(how);
    }

    @Override
    public void onBalancerChoiceIgnored() {
      ignoredBalancerChoices.incrementAndGet();
      also.onBalancerChoiceIgnored();
    }
  }
}
