package dev.pointsman.picker.routing;

import dev.pointsman.extproc.Completion;
import dev.pointsman.inference.error.OpenAiError;
import dev.pointsman.inference.error.RequestRejectedException;
import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.inference.model.PoolTarget;
import dev.pointsman.inference.model.Resolution;
import dev.pointsman.picker.flowcontrol.Pressure;
import dev.pointsman.picker.scheduling.AppProtocol;
import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.Decision;
import dev.pointsman.picker.scheduling.PoolSnapshot;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.SchedulingPolicy;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Routing in one hop: the body's model is resolved to its pools, and the endpoint is chosen across
 * them. With a bound pool (Endpoint Picker Protocol mode) every request goes to that pool: the
 * gateway's routes already chose it.
 */
public final class OneHopRouter implements Routing {
  private final Supplier<ModelResolver> resolver;
  private final Function<String, PoolSnapshot> pools;
  private final PolicyRegistry policies;
  private final Scheduler scheduler;
  private final Objectives objectives;
  private final Supplier<RandomGenerator> random;
  private final String boundPool;

  /**
   * @param resolver the current model resolver (it changes when models are discovered)
   * @param pools a pool's current snapshot by name
   * @param boundPool the one pool served in Endpoint Picker Protocol mode, or null for one hop
   */
  public OneHopRouter(
      Supplier<ModelResolver> resolver,
      Function<String, PoolSnapshot> pools,
      PolicyRegistry policies,
      Scheduler scheduler,
      Objectives objectives,
      Supplier<RandomGenerator> random,
      String boundPool) {
    this.resolver = resolver;
    this.pools = pools;
    this.policies = policies;
    this.scheduler = scheduler;
    this.objectives = objectives;
    this.random = random;
    this.boundPool = boundPool;
  }

  @Override
  public RouteOutcome route(RouteInput input) {
    String requested = input.body().model();
    Resolution resolution;
    try {
      resolution = resolver.get().resolve(requested);
    } catch (RequestRejectedException e) {
      if (boundPool == null || requested == null || requested.isEmpty()) {
        return new RouteOutcome.Rejected(e.error(), e.reason().name().toLowerCase(), 0);
      }
      resolution = null;
    }
    List<String> poolNames = poolsFor(resolution);
    List<PoolSnapshot> snapshots = snapshots(poolNames);
    SchedulingRequest request = schedulingRequest(input, resolution);
    String model = request.model();
    RandomGenerator rng = random.get();
    Decision decision =
        scheduler.schedule(request, snapshots, policies.policy(poolNames.get(0)), rng);
    return switch (decision) {
      case Decision.Picked p -> {
        String pool = p.primary().state().endpoint().pool();
        yield new RouteOutcome.Routed(
            p, pool, model, input.body().stream(), protocolOf(pool, snapshots));
      }
      case Decision.Shed s ->
          new RouteOutcome.Rejected(
              new OpenAiError(429, s.reason(), "rate_limit_error", "pool_saturated"),
              "shed",
              s.retryAfterSeconds(),
              DroppedReason.SATURATED);
      case Decision.NoEndpoints n ->
          new RouteOutcome.Rejected(
              new OpenAiError(503, n.reason(), "server_error", "no_ready_endpoint"),
              "no_endpoints",
              1,
              DroppedReason.of(n.cause()));
    };
  }

  private SchedulingRequest schedulingRequest(RouteInput input, Resolution resolution) {
    String requested = input.body().model();
    return new SchedulingRequest(
        input.requestId(),
        resolution == null ? requested : resolution.canonicalModel(),
        resolution == null ? null : resolution.adapter(),
        input.body().prompt(),
        input.body().estimatedPromptTokens(),
        input.body().maxOutputTokens().orElse(-1),
        objectives.sheddable(input.objective()) || (resolution != null && resolution.sheddable()),
        input.subset(),
        input.tpotSloSeconds());
  }

  private List<PoolSnapshot> snapshots(List<String> poolNames) {
    List<PoolSnapshot> snapshots = new ArrayList<>(poolNames.size());
    for (String name : poolNames) {
      snapshots.add(pools.apply(name));
    }
    return snapshots;
  }

  /**
   * What flow control needs to hold {@code input}: its pools (every pool its model may go to, the
   * queue's key), its priority, and a probe of those pools' pressure as the scheduler sees them.
   * Null when routing refuses the request before any pool (an unknown model): it is answered at
   * once.
   */
  public FlowTarget flowTarget(RouteInput input) {
    Resolution resolution;
    String requested = input.body().model();
    try {
      resolution = resolver.get().resolve(requested);
    } catch (RequestRejectedException e) {
      if (boundPool == null || requested == null || requested.isEmpty()) {
        return null;
      }
      resolution = null;
    }
    List<String> poolNames =
        boundPool != null ? List.of(boundPool) : distinctSorted(resolution.pools());
    if (poolNames.isEmpty()) {
      return null;
    }
    SchedulingRequest request = schedulingRequest(input, resolution);
    SchedulingPolicy policy = policies.policy(poolNames.get(0));
    int priority = objectives.priority(input.objective());
    if (request.sheddable() && priority >= 0) {
      priority = -1; // a sheddable model's requests without a sheddable objective
    }
    return new FlowTarget(
        String.join(",", poolNames),
        priority,
        policy.saturation().retryAfterSeconds(),
        r -> {
          List<Candidate> candidates = scheduler.candidatesFor(request, snapshots(poolNames));
          return new Pressure(
              !candidates.isEmpty(),
              policy.saturation().saturated(candidates),
              scheduler.bestTtftSeconds(request, candidates),
              policy.saturation().load(candidates));
        });
  }

  private static List<String> distinctSorted(List<PoolTarget> targets) {
    if (targets.size() == 1) {
      return List.of(targets.get(0).pool());
    }
    TreeSet<String> names = new TreeSet<>();
    for (PoolTarget t : targets) {
      names.add(t.pool());
    }
    return List.copyOf(names);
  }

  private static AppProtocol protocolOf(String pool, List<PoolSnapshot> snapshots) {
    for (PoolSnapshot s : snapshots) {
      if (s.pool().equals(pool)) {
        return s.appProtocol();
      }
    }
    return AppProtocol.HTTP;
  }

  private List<String> poolsFor(Resolution resolution) {
    if (boundPool != null) {
      return List.of(boundPool);
    }
    List<PoolTarget> targets = resolution.pools();
    if (targets.size() == 1) {
      return List.of(targets.get(0).pool());
    }
    for (PoolTarget t : targets) {
      if (t.weight() != targets.get(0).weight()) {
        return List.of(PoolTarget.choose(targets, random.get().nextDouble()).pool());
      }
    }
    List<String> all = new ArrayList<>(targets.size());
    for (PoolTarget t : targets) {
      all.add(t.pool());
    }
    return all;
  }

  @Override
  public RouteOutcome.Routed served(RouteOutcome.Routed routed, String endpoint) {
    if (endpoint == null || endpoint.equals(routed.address())) {
      return routed;
    }
    Decision.Picked moved = scheduler.servedBy(routed.picked(), endpoint);
    if (moved == null) {
      return routed; // not an endpoint it picked: its hold is released, nothing is learned
    }
    return new RouteOutcome.Routed(
        moved,
        moved.primary().state().endpoint().pool(),
        routed.model(),
        routed.streamed(),
        routed.appProtocol());
  }

  @Override
  public void firstByte(RouteOutcome.Routed routed, int status, String servedBy, long ttftNanos) {
    routed.picked().ticket().firstToken();
    if (status != 200 || !routed.streamed() || !servedByPick(routed, servedBy)) {
      // the first byte of a non-streamed response comes after the last token: no TTFT to learn
      return;
    }
    scheduler.observeTtft(routed.picked(), ttftNanos / 1e9);
  }

  private static boolean servedByPick(RouteOutcome.Routed routed, String servedBy) {
    return servedBy == null || servedBy.equals(routed.address());
  }

  @Override
  public void completed(RouteOutcome.Routed routed, Completion completion) {
    routed.picked().ticket().release();
    if (completion.status() == 200
        && completion.end() == Completion.End.COMPLETED
        && completion.usage().completionTokens() > 0) {
      scheduler.observeAnswer(completion.usage().completionTokens());
    }
    if (completion.ttftNanos() < 0
        || completion.status() != 200
        || !routed.streamed()
        || !servedByPick(routed, completion.servedBy())) {
      return;
    }
    // the time to first token was learned at the first byte (firstByte)
    int tokens = completion.usage().completionTokens();
    if (completion.end() == Completion.End.COMPLETED
        && tokens >= 2
        && completion.totalNanos() > completion.ttftNanos()) {
      // the first byte carries the first token; the rest came in (total − ttft)
      double tpot = (completion.totalNanos() - completion.ttftNanos()) / 1e9 / (tokens - 1);
      scheduler.observeTpot(routed.picked(), tpot);
    }
  }

  @Override
  public String modelsJson() {
    return resolver.get().modelsListJson();
  }

  @Override
  public String modelJson(String id) {
    return resolver.get().modelJson(id);
  }
}
