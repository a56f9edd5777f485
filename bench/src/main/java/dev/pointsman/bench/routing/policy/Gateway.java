package dev.pointsman.bench.routing.policy;

import dev.pointsman.bench.routing.workload.BenchRequest;
import dev.pointsman.picker.config.FlowControlSection;
import dev.pointsman.picker.config.ReplicationSection;
import dev.pointsman.picker.flowcontrol.FlowLimits;
import dev.pointsman.picker.flowcontrol.TokenBudgets;
import dev.pointsman.picker.scheduling.PolicyConfig;
import dev.pointsman.picker.scheduling.Scheduler;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The gateway in front of the fleet, as deployed: Envoy and N independent replicas of one policy
 * (the Helm chart ships two pickers). Each replica is a fresh instance with its own {@link
 * FleetView} (its own scrapes of every pod, on its own schedule) and so its own in-flight tracker,
 * prefix index and learned models. Without sharing they share nothing else; with it ({@code
 * production.sharing}) the picker's own replicas ({@code pointsman}, {@code pointsman-kv-events}
 * and custom picker policies) share picks, observed latencies and in-flight work as the picker's
 * replication does, in virtual time ({@link Sharing}). The baselines never share: they ship no
 * replication. {@link EnvoyBalancer} decides which replica routes each request, and that replica
 * alone hears of the request's response.
 *
 * <p>What a replica hears, and when, is what the gateway sees of the response: the first byte of a
 * streamed response comes with its first token; a non-streamed response has nothing to send until
 * its last token, so its first byte ({@link #onFirstToken}) is delivered at its end, just before
 * {@link #onFinish}. With one replica and only streamed requests this is exactly the policy alone.
 */
public final class Gateway implements RoutingPolicy {
  private final String name;
  private final List<RoutingPolicy> replicas;
  private final EnvoyBalancer envoys;
  private final Map<Long, Integer> streamOf = new HashMap<>();
  private final Sharing sharing;

  Gateway(List<RoutingPolicy> replicas, EnvoyBalancer envoys) {
    this(replicas, envoys, null);
  }

  private Gateway(List<RoutingPolicy> replicas, EnvoyBalancer envoys, Sharing sharing) {
    this.name = replicas.get(0).name();
    this.replicas = List.copyOf(replicas);
    this.envoys = envoys;
    this.sharing = sharing;
  }

  /**
   * Replicas of {@code policy}, one per view; replica 0 draws from {@code random} exactly as a
   * single instance would, the others and the balancer from splits of {@code others}.
   */
  public static Gateway create(
      String policy,
      List<FleetView> views,
      SplittableRandom random,
      SplittableRandom others,
      Map<String, PolicyConfig> custom,
      int envoys) {
    return create(policy, views, random, others, custom, envoys, false);
  }

  /**
   * As {@link #create(String, List, SplittableRandom, SplittableRandom, Map, int)}; with {@code
   * share} the picker's replicas share what they learn (the baselines ignore it).
   */
  public static Gateway create(
      String policy,
      List<FleetView> views,
      SplittableRandom random,
      SplittableRandom others,
      Map<String, PolicyConfig> custom,
      int envoys,
      boolean share) {
    if (views.isEmpty()) {
      throw new IllegalArgumentException("views: [] (expected at least one replica)");
    }
    SplittableRandom balancer = others.split();
    List<RoutingPolicy> instances = new ArrayList<>(views.size());
    for (int i = 0; i < views.size(); i++) {
      instances.add(
          Policies.create(policy, views.get(i), i == 0 ? random : others.split(), custom));
    }
    EnvoyBalancer balancerOfStreams = new EnvoyBalancer(envoys, views.size(), balancer);
    boolean picker =
        (policy.equals("pointsman")
                || policy.equals(PreciseIndexPolicy.NAME)
                || custom.containsKey(policy))
            && instances.stream().allMatch(r -> productionScheduler(r) != null);
    if (!share || !picker || views.size() < 2) {
      return new Gateway(instances, balancerOfStreams);
    }
    List<Scheduler> schedulers = new ArrayList<>();
    for (RoutingPolicy r : instances) {
      schedulers.add(productionScheduler(r));
    }
    FleetView clock = views.get(0);
    return new Gateway(
        instances,
        balancerOfStreams,
        new Sharing(schedulers, ReplicationSection.DEFAULTS, clock::nowNanos));
  }

  /**
   * Puts the picker's flow control in front of each replica of the picker's own policies (each
   * replica its own gate, as each picker replica keeps its own queue); the baselines ship none.
   * Tenants' {@code budgets}: with sharing on, one set of buckets for every replica (the picker's
   * replicas fold each other's use in a batch interval late; here at once); without it, each
   * replica enforces them on what it admits itself, as a lone picker replica does. Returns whether
   * any replica is now flow-controlled.
   */
  public boolean enableFlowControl(
      FlowLimits limits, List<FlowControlSection.BudgetEntry> budgets) {
    boolean any = false;
    TokenBudgets shared = null;
    for (RoutingPolicy r : replicas) {
      if (r instanceof SchedulerPolicy s) {
        if (shared == null || sharing == null) {
          shared = FlowControlSection.tokenBudgets(budgets, s::nowNanos);
        }
        s.enableFlowControl(limits, shared);
        any = true;
      }
    }
    return any;
  }

  /** Requests waiting in the replicas' flow control now. */
  public int flowWaiting() {
    int n = 0;
    for (RoutingPolicy r : replicas) {
      if (r instanceof SchedulerPolicy s) {
        n += s.flowWaiting();
      }
    }
    return n;
  }

  /**
   * Pumps every replica's flow control now; returns the requests that left it (by id), routed or
   * refused. A refused one's stream ends.
   */
  public Map<Long, Route> pumpFlow() {
    advance();
    Map<Long, Route> left = new LinkedHashMap<>();
    for (RoutingPolicy r : replicas) {
      if (r instanceof SchedulerPolicy s && s.flowControlled()) {
        for (Map.Entry<Long, Route> e : s.pumpFlow().entrySet()) {
          left.put(e.getKey(), e.getValue());
          if (e.getValue().outcome() != Route.Outcome.ROUTED) {
            endStream(e.getKey());
          }
        }
      }
    }
    return left;
  }

  /** Whether the replicas share what they learn. */
  public boolean shares() {
    return sharing != null;
  }

  /** Runs the replicas' batches and deliveries due by now (before each event; tests). */
  void advance() {
    if (sharing != null) {
      sharing.advance();
    }
  }

  @Override
  public String name() {
    return name;
  }

  public int size() {
    return replicas.size();
  }

  /**
   * The production scheduler of replica {@code i}, for what the picker publishes from it (the fleet
   * benchmark's cluster summaries).
   *
   * @throws IllegalStateException when the policy is not run by the production scheduler
   */
  public Scheduler scheduler(int i) {
    Scheduler s = productionScheduler(replicas.get(i));
    if (s != null) {
      return s;
    }
    throw new IllegalStateException(
        "policy " + name + ": no production scheduler (expected pointsman or a picker policy)");
  }

  /**
   * The production scheduler behind a replica of the picker's own policies ({@code pointsman},
   * {@code pointsman-kv-events}, custom picker policies); null for a baseline.
   */
  private static Scheduler productionScheduler(RoutingPolicy r) {
    if (r instanceof SchedulerPolicy s) {
      return s.scheduler();
    }
    if (r instanceof PreciseIndexPolicy p) {
      return p.scheduler();
    }
    return null;
  }

  /** Replica {@code i}, for tests. */
  RoutingPolicy replica(int i) {
    return replicas.get(i);
  }

  @Override
  public Route route(BenchRequest request) {
    advance();
    int stream = envoys.open();
    Route route = replicas.get(envoys.picker(stream)).route(request);
    if (route.outcome() == Route.Outcome.ROUTED || route.outcome() == Route.Outcome.QUEUED) {
      streamOf.put(request.id(), stream); // a waiting request holds its stream open
    } else {
      envoys.close(stream); // answered at once: the stream ends
    }
    return route;
  }

  /** Replica {@code replica}'s view of {@code pod} was scraped. */
  public void onScrape(int replica, int pod) {
    advance();
    replicas.get(replica).onScrape(pod);
  }

  /** Every replica's view was scraped (tests and single-view callers). */
  @Override
  public void onScrape(int pod) {
    advance();
    for (RoutingPolicy r : replicas) {
      r.onScrape(pod);
    }
  }

  /** The engine produced the first token: a streamed response's first byte reaches the gateway. */
  @Override
  public void onFirstToken(BenchRequest request, int pod) {
    advance();
    Integer stream = streamOf.get(request.id());
    if (stream != null && request.streamed()) {
      replicas.get(envoys.picker(stream)).onFirstToken(request, pod);
    }
  }

  /** The request ended. A non-streamed one sends its only bytes now. */
  @Override
  public void onFinish(BenchRequest request, int pod) {
    advance();
    Integer stream = streamOf.remove(request.id());
    if (stream == null) {
      return;
    }
    RoutingPolicy replica = replicas.get(envoys.picker(stream));
    if (!request.streamed()) {
      replica.onFirstToken(request, pod);
    }
    replica.onFinish(request, pod);
    envoys.close(stream);
  }

  /**
   * The request failed on {@code pod} before or while answering: a restart lost it, or the pod
   * refused it. Only the replica that routed it hears of it, as it alone holds the stream.
   */
  @Override
  public void onFailed(BenchRequest request, int pod) {
    ended(request, pod, false);
  }

  /**
   * The pod refused the request before answering. The replica that routed it decides whether it
   * sends it again; while it will, the request keeps its stream (see {@link #resend}).
   */
  @Override
  public double onConnectFailed(BenchRequest request, int pod, int retriesSoFar) {
    advance();
    Integer stream = streamOf.get(request.id());
    if (stream == null) {
      return Double.NaN;
    }
    double delay = replicas.get(envoys.picker(stream)).onConnectFailed(request, pod, retriesSoFar);
    if (Double.isNaN(delay)) {
      endStream(request.id());
    }
    return delay;
  }

  /**
   * Routes again a request whose replica chose to send it again after a refusal ({@link
   * #onConnectFailed}), on the same stream and by the same replica.
   */
  public Route resend(BenchRequest request) {
    advance();
    Integer stream = streamOf.get(request.id());
    if (stream == null) {
      throw new IllegalStateException("request " + request.id() + ": no stream to resend on");
    }
    Route route = replicas.get(envoys.picker(stream)).route(request);
    if (route.outcome() != Route.Outcome.ROUTED && route.outcome() != Route.Outcome.QUEUED) {
      endStream(request.id());
    }
    return route;
  }

  /** The request's stream, if it still has one, ends: Envoy no longer counts it open. */
  private void endStream(long requestId) {
    Integer stream = streamOf.remove(requestId);
    if (stream != null) {
      envoys.close(stream);
    }
  }

  /** The pod answered the request with a client error at once (see {@link #onFailed}). */
  @Override
  public void onRefused(BenchRequest request, int pod) {
    ended(request, pod, true);
  }

  private void ended(BenchRequest request, int pod, boolean refused) {
    advance();
    Integer stream = streamOf.remove(request.id());
    if (stream == null) {
      return;
    }
    RoutingPolicy replica = replicas.get(envoys.picker(stream));
    if (refused) {
      replica.onRefused(request, pod);
    } else {
      replica.onFailed(request, pod);
    }
    envoys.close(stream);
  }
}
