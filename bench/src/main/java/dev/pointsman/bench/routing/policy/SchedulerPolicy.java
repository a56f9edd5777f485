package dev.pointsman.bench.routing.policy;

import dev.pointsman.bench.routing.workload.BenchRequest;
import dev.pointsman.picker.scheduling.Decision;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.SchedulingPolicy;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import dev.pointsman.picker.scheduling.latency.LatencyModel;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import dev.pointsman.picker.scheduling.prior.SpeedPriors;
import java.util.HashMap;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * A policy run by the picker's production {@link Scheduler}, as shipped: its own {@link
 * InFlightTracker} (told of every applied scrape, tickets released when a request ends) and its own
 * {@link PrefixIndex} sized as in the picker. Used for {@code pointsman} (the production default)
 * and the scorer-framework baselines ({@code gie-default}, {@code queue-only}, …). When the policy
 * has a {@code predicted-latency-scorer}, its TTFT prediction for the chosen endpoint is reported
 * so the bench can measure its error, and so is its time-per-output-token prediction.
 */
final class SchedulerPolicy implements RoutingPolicy {
  /** Blocks remembered per endpoint, as in the picker ({@code PickerApp}). */
  static final int PREFIX_BLOCKS_PER_ENDPOINT = 31_250;

  private final String name;
  private final SchedulingPolicy policy;
  private final FleetView fleet;
  private final RandomGenerator random;
  private final Scheduler scheduler;
  private final Map<Long, Decision.Picked> picks = new HashMap<>();
  private final Map<Long, Double> firstTokenMs = new HashMap<>();
  private final Map<String, Integer> podOf = new HashMap<>();

  SchedulerPolicy(String name, SchedulingPolicy policy, FleetView fleet, RandomGenerator random) {
    this(name, policy, fleet, random, SpeedPriors.builtIn());
  }

  /**
   * @param priors the scheduler's speed priors (the built-in spec table, or a mismatch variant's)
   */
  SchedulerPolicy(
      String name,
      SchedulingPolicy policy,
      FleetView fleet,
      RandomGenerator random,
      SpeedPriors priors) {
    this.name = name;
    this.policy = policy;
    this.fleet = fleet;
    this.random = random;
    this.scheduler =
        new Scheduler(
            new PrefixIndex(PREFIX_BLOCKS_PER_ENDPOINT),
            new InFlightTracker(),
            PrefixHasher.DEFAULT,
            fleet::nowNanos,
            new LatencyModel(),
            priors);
    for (int i = 0; i < fleet.size(); i++) {
      podOf.put(FleetView.address(i), i);
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Route route(BenchRequest r) {
    SchedulingRequest request =
        new SchedulingRequest(
            Long.toString(r.id()),
            fleet.model(r),
            r.adapterOrNull(),
            fleet.promptText(r),
            r.sim().promptTokens(),
            -1,
            r.sheddable(),
            null);
    Decision decision = scheduler.schedule(request, fleet.pool(), policy, random);
    return switch (decision) {
      case Decision.Picked p -> {
        picks.put(r.id(), p);
        yield Route.to(
            podOf.get(p.address()), predictMs(p), p.prediction().predictedTpotSeconds() * 1000);
      }
      case Decision.Shed s -> Route.shed();
      case Decision.NoEndpoints n -> Route.failed();
    };
  }

  /**
   * The scheduler's own prediction for the pick (the learned model on top of the analytic
   * estimate), for the report's predictor error.
   */
  private static double predictMs(Decision.Picked p) {
    return p.predictedTtftSeconds() * 1000;
  }

  @Override
  public void onScrape(int pod) {
    scheduler.inFlight().onScrape(FleetView.address(pod));
  }

  /**
   * The first token teaches the scheduler's latency model, as response streams do in the picker.
   */
  @Override
  public void onFirstToken(BenchRequest request, int pod) {
    Decision.Picked p = picks.get(request.id());
    if (p != null) {
      scheduler.observeTtft(p, (fleet.nowMs() - request.arrivalMs()) / 1000);
      firstTokenMs.put(request.id(), fleet.nowMs());
    }
  }

  /** A failed stream releases its ticket and teaches nothing: it reported no usage. */
  @Override
  public void onFailed(BenchRequest request, int pod) {
    Decision.Picked p = picks.remove(request.id());
    firstTokenMs.remove(request.id());
    if (p != null) {
      p.ticket().release();
    }
  }

  @Override
  public void onFinish(BenchRequest request, int pod) {
    Decision.Picked p = picks.remove(request.id());
    Double first = firstTokenMs.remove(request.id());
    if (p != null) {
      p.ticket().release();
      int out = request.sim().outputTokens();
      if (first != null && out > 1) {
        // as the picker learns it from a streamed response that reports usage
        scheduler.observeTpot(p, (fleet.nowMs() - first) / 1000 / (out - 1));
      }
    }
  }
}
