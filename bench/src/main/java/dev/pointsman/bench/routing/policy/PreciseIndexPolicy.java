package dev.pointsman.bench.routing.policy;

import dev.pointsman.bench.routing.workload.BenchRequest;
import dev.pointsman.picker.kvevents.EnginePrefix;
import dev.pointsman.picker.kvevents.KvBlockIndex;
import dev.pointsman.picker.kvevents.KvEventsSettings;
import dev.pointsman.picker.scheduling.Plugins;
import dev.pointsman.picker.scheduling.PolicyConfig;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import dev.pointsman.sim.engine.EngineConfig;
import java.util.random.RandomGenerator;

/**
 * {@code pointsman-kv-events}: the production default with the precise prefix index on, as a pool
 * with {@code kvEvents: {enabled: true, scoring: true, tokenizer: …}} runs it. The engines' KV
 * events fill a {@link KvBlockIndex} sized as an operator sizes the picker's ({@link #maxBlocks},
 * {@link FleetView#publishKvEvents}), blocks offloaded to CPU memory credited at the picker's
 * default; each request is tokenized as the model's tokenizer would ({@link
 * FleetView#promptTokenIds}) and matched by the picker's own {@link EnginePrefix}. Everything else
 * is {@code pointsman}'s: the same scheduler, scorers, parser and learning ({@link
 * SchedulerPolicy}).
 *
 * <p>Two ways it is kinder than production, both stated with its figures: events land at once
 * rather than milliseconds later, and a chat request's tokens are the engine's whole prompt, where
 * the picker does not yet render the chat template (docs/kv-events.md). Its events carry no LoRA
 * name, so an adapter request matches nothing: scenarios for it have no adapters.
 */
final class PreciseIndexPolicy implements RoutingPolicy {
  static final String NAME = "pointsman-kv-events";

  private final FleetView fleet;
  private final SchedulerPolicy production;
  private final KvBlockIndex index;
  private BenchRequest routing;

  PreciseIndexPolicy(FleetView fleet, RandomGenerator random) {
    this.fleet = fleet;
    this.production =
        new SchedulerPolicy(NAME, Plugins.build(PolicyConfig.defaults()), fleet, random);
    // and given the heap for it, as docs/kv-events.md tells an operator: no total bound
    this.index = new KvBlockIndex(maxBlocks(fleet));
    fleet.publishKvEvents(index);
    EnginePrefix precise = new EnginePrefix(index, this::tokenize);
    production.scheduler().usePrecisePrefix(pool -> precise);
  }

  /**
   * The index's bound per endpoint as docs/kv-events.md tells an operator to set it: the default,
   * or more when an engine's GPU and CPU tiers together hold more blocks.
   */
  static int maxBlocks(FleetView fleet) {
    int max = KvEventsSettings.DEFAULT_MAX_BLOCKS;
    for (int i = 0; i < fleet.size(); i++) {
      EngineConfig c = fleet.config(i);
      max = Math.max(max, c.gpu().kvBlocks() + c.offload().cpuBlocks());
    }
    return max;
  }

  /**
   * The production scheduler behind it: with {@code production.sharing} its replicas share
   * in-flight work, picks and learned models as the picker's replication does (each replica's
   * precise index is filled by every engine's events, so it needs no sharing).
   */
  Scheduler scheduler() {
    return production.scheduler();
  }

  /** The precise index the engines' events fill, for tests. */
  KvBlockIndex index() {
    return index;
  }

  /** The tokens of the request being routed now; null (the approximate index) for any other. */
  private int[] tokenize(SchedulingRequest request) {
    BenchRequest r = routing;
    return r == null || !request.requestId().equals(Long.toString(r.id()))
        ? null
        : fleet.promptTokenIds(r);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Route route(BenchRequest request) {
    routing = request;
    try {
      return production.route(request);
    } finally {
      routing = null;
    }
  }

  @Override
  public void onScrape(int pod) {
    production.onScrape(pod);
  }

  @Override
  public void onFirstToken(BenchRequest request, int pod) {
    production.onFirstToken(request, pod);
  }

  @Override
  public void onFinish(BenchRequest request, int pod) {
    production.onFinish(request, pod);
  }

  @Override
  public void onFailed(BenchRequest request, int pod) {
    production.onFailed(request, pod);
  }
}
