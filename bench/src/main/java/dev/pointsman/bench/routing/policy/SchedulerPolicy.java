package dev.pointsman.bench.routing.policy;

import dev.pointsman.bench.routing.workload.BenchRequest;
import dev.pointsman.picker.scheduling.Decision;
import dev.pointsman.picker.scheduling.Explanation;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.SchedulingPolicy;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import dev.pointsman.picker.scheduling.WeightedScorer;
import dev.pointsman.picker.scheduling.plugins.PredictedLatencyScorer;
import dev.pointsman.picker.scheduling.plugins.PrefixCacheScorer;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.util.HashMap;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * A policy run by the picker's production {@link Scheduler}, as shipped: its own {@link
 * InFlightTracker} (told of every applied scrape, tickets released when a request ends) and its own
 * {@link PrefixIndex} sized as in the picker. Used for {@code pointsman} (the production default)
 * and the scorer-framework baselines ({@code gie-default}, {@code queue-only}, …). When the policy
 * has a {@code predicted-latency-scorer}, its TTFT prediction for the chosen endpoint is reported
 * so the bench can measure its error.
 */
final class SchedulerPolicy implements RoutingPolicy {
  /** Blocks remembered per endpoint, as in the picker ({@code PickerApp}). */
  static final int PREFIX_BLOCKS_PER_ENDPOINT = 31_250;

  /** The simulator's API overhead, added to the scorer's engine-side prediction. */
  private static final double API_OVERHEAD_MS = 10;

  private final String name;
  private final SchedulingPolicy policy;
  private final FleetView fleet;
  private final RandomGenerator random;
  private final Scheduler scheduler;
  private final Map<Long, InFlightTracker.Ticket> tickets = new HashMap<>();
  private final Map<String, Integer> podOf = new HashMap<>();
  private final PredictedLatencyScorer predictor;

  SchedulerPolicy(String name, SchedulingPolicy policy, FleetView fleet, RandomGenerator random) {
    this.name = name;
    this.policy = policy;
    this.fleet = fleet;
    this.random = random;
    this.scheduler =
        new Scheduler(
            new PrefixIndex(PREFIX_BLOCKS_PER_ENDPOINT),
            new InFlightTracker(),
            PrefixHasher.DEFAULT,
            fleet::nowNanos);
    for (int i = 0; i < fleet.size(); i++) {
      podOf.put(FleetView.address(i), i);
    }
    PredictedLatencyScorer p = null;
    for (WeightedScorer ws : policy.scorers()) {
      if (ws.scorer() instanceof PredictedLatencyScorer pls) {
        p = pls;
      }
    }
    this.predictor = p;
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
        tickets.put(r.id(), p.ticket());
        yield Route.to(podOf.get(p.address()), predictMs(p, request));
      }
      case Decision.Shed s -> Route.shed();
      case Decision.NoEndpoints n -> Route.failed();
    };
  }

  private double predictMs(Decision.Picked p, SchedulingRequest request) {
    if (predictor == null) {
      return Double.NaN;
    }
    Explanation why = p.explanation();
    double hit = 0;
    int prefixRow = why.scorers().indexOf(PrefixCacheScorer.TYPE);
    if (prefixRow >= 0) {
      hit = why.scores()[prefixRow][why.chosen()];
    }
    double uncached = request.promptTokens() * (1.0 - hit);
    return predictor.predictTtftSeconds(p.primary(), uncached) * 1000 + API_OVERHEAD_MS;
  }

  @Override
  public void onScrape(int pod) {
    scheduler.inFlight().onScrape(FleetView.address(pod));
  }

  @Override
  public void onFinish(BenchRequest request, int pod) {
    InFlightTracker.Ticket t = tickets.remove(request.id());
    if (t != null) {
      t.release();
    }
  }
}
