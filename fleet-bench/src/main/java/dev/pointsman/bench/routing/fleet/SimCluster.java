package dev.pointsman.bench.routing.fleet;

import dev.pointsman.bench.routing.policy.FleetView;
import dev.pointsman.bench.routing.policy.Gateway;
import dev.pointsman.bench.routing.run.Fleets;
import dev.pointsman.bench.routing.run.ScrapeFeed;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.workload.ClientRequests;
import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.inference.model.ModelsConfig;
import dev.pointsman.picker.scheduling.Saturation;
import dev.pointsman.picker.summary.ClusterSummary;
import dev.pointsman.picker.summary.HotPrefixes;
import dev.pointsman.picker.summary.SummaryBuilder;
import dev.pointsman.sim.engine.EngineConfig;
import dev.pointsman.sim.engine.EngineListener;
import dev.pointsman.sim.engine.VirtualCluster;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One cluster as the routing benchmark runs a fleet: its simulated pods in the scenario's world,
 * one picker replica run by the production scheduler ({@link Gateway} of {@code pointsman}), that
 * picker's scrapes ({@link ScrapeFeed}), and the summary the picker publishes, made by the
 * production {@link SummaryBuilder} from that same scheduler, snapshot and hot prefixes. Not
 * thread-safe.
 */
final class SimCluster {
  /** Digests kept per pool, the picker's default. */
  static final int HOT_PREFIXES = 256;

  /** The picker's default reference prompt for the summary's prediction. */
  static final int REFERENCE_PROMPT_TOKENS = 1000;

  final ClusterSpec spec;
  final VirtualCluster engines;
  final FleetView view;
  final Gateway gateway;
  final ScrapeFeed feed;
  final HotPrefixes hot = new HotPrefixes(HOT_PREFIXES);
  private final SummaryBuilder summaries;
  private long sequence;

  SimCluster(
      ClusterSpec spec,
      int index,
      Scenario workload,
      ClientRequests clients,
      EngineListener listener,
      long seed,
      long intervalMillis) {
    this.spec = spec;
    Scenario scenario = workload.withFleet(spec.name(), spec.pods());
    List<EngineConfig> configs = Fleets.configs(scenario);
    long mix = seed * 0x9E3779B97F4A7C15L + index;
    engines = new VirtualCluster(configs, listener, scenario.world(), mix ^ 0x574F524C44L);
    view = new FleetView(configs, engines, null, clients, null);
    gateway =
        Gateway.create(
            "pointsman",
            List.of(view),
            new SplittableRandom(mix * 31 + 7),
            new SplittableRandom(mix ^ 0x4E9L),
            Map.of(),
            scenario.production().envoys());
    feed =
        new ScrapeFeed(
            scenario.scrape(),
            configs.size(),
            new SplittableRandom(mix ^ 0x5C2A9EL),
            new SplittableRandom(mix ^ 0x5343524150L));
    ModelResolver resolver =
        ModelResolver.of(new ModelsConfig(List.of(), null))
            .withDiscovered(FleetView.POOL, clients.baseModel(), clients.adapters());
    summaries =
        new SummaryBuilder(
            spec.name(),
            REFERENCE_PROMPT_TOKENS,
            intervalMillis,
            new SummaryBuilder.Sources(
                () -> List.of(FleetView.POOL),
                pool -> view.pool(),
                pool -> Saturation.DEFAULT,
                () -> resolver),
            gateway.scheduler(0),
            hot);
  }

  /** The summary the picker publishes now. */
  ClusterSummary summary() {
    return summaries.build(++sequence, (long) engines.now());
  }

  /** Runs the pods and the picker's scrapes up to {@code timeMs}. */
  void runUntil(double timeMs) {
    while (feed.nextEventMs() <= timeMs) {
      engines.runUntil(feed.nextEventMs());
      feed.fire(engines, view, pod -> gateway.onScrape(0, pod));
    }
    engines.runUntil(timeMs);
  }
}
