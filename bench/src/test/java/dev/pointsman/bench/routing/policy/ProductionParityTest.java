package dev.pointsman.bench.routing.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.bench.routing.run.Fleets;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import dev.pointsman.bench.routing.workload.BenchRequest;
import dev.pointsman.bench.routing.workload.ClientRequests;
import dev.pointsman.bench.routing.workload.RequestStream;
import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.inference.model.ModelsConfig;
import dev.pointsman.inference.request.ParserLimits;
import dev.pointsman.inference.request.RequestParser;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.routing.Objectives;
import dev.pointsman.picker.routing.OneHopRouter;
import dev.pointsman.picker.routing.PolicyRegistry;
import dev.pointsman.picker.routing.RouteInput;
import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.CycleState;
import dev.pointsman.picker.scheduling.Filter;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.Plugins;
import dev.pointsman.picker.scheduling.PolicyConfig;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.SchedulingPolicy;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import dev.pointsman.sim.engine.EngineConfig;
import dev.pointsman.sim.engine.EngineListener;
import dev.pointsman.sim.engine.SimRequest;
import dev.pointsman.sim.engine.VirtualCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The bench's pointsman receives no input the production picker lacks: what reaches its scheduler
 * is exactly what the picker's own routing builds from the request body bytes a client sends,
 * parsed by the picker's parser with the picker's limits, so exact token counts cannot reach it.
 */
class ProductionParityTest {

  /** A pass-through filter that records every request the scheduler is asked to place. */
  private static final class Recorder implements Filter {
    final List<SchedulingRequest> seen = new ArrayList<>();

    @Override
    public String type() {
      return "recorder";
    }

    @Override
    public List<Candidate> filter(
        SchedulingRequest request, List<Candidate> candidates, CycleState context) {
      seen.add(request);
      return candidates;
    }
  }

  private static SchedulingPolicy recording(Recorder recorder) {
    SchedulingPolicy shipped = Plugins.build(PolicyConfig.defaults());
    List<Filter> filters = new ArrayList<>();
    filters.add(recorder);
    filters.addAll(shipped.filters());
    return new SchedulingPolicy(
        filters, shipped.scorers(), shipped.picker(), shipped.fallbacks(), shipped.saturation());
  }

  /** LoRA adapters on some pods, sheddable and non-streamed requests, code and CJK text. */
  private static Scenario scenario() {
    String yaml =
        """
        name: parity
        fleet: [{gpu: H100-80, count: 2}, {gpu: L4, count: 2}]
        workload: [{kind: sharegpt, weight: 1}, {kind: rag, weight: 1, documents: 5}]
        lora: {fraction: 0.5, adapters: 4, replicas: 2}
        loads: [0.5]
        sheddableFraction: 0.3
        production: {streamedFraction: 0.5, text: {prose: 1, code: 1, cjk: 1}}
        """;
    return Scenarios.parse(yaml, "parity.yaml");
  }

  @Test
  void theSchedulerGetsExactlyWhatTheProductionPathBuildsFromTheBodyBytes() {
    Scenario scenario = scenario();
    List<BenchRequest> stream = RequestStream.generate(scenario, 20, 30_000, 3, 300);
    List<EngineConfig> configs = Fleets.configs(scenario);
    VirtualCluster cluster = new VirtualCluster(configs, EngineListener.NONE);
    ClientRequests clients = ClientRequests.of(scenario);
    FleetView view =
        new FleetView(configs, cluster, scenario.lora().placement(configs.size()), clients);

    // the bench's pointsman, with a recorder in front of its filters
    Recorder bench = new Recorder();
    SchedulerPolicy policy =
        new SchedulerPolicy("pointsman", recording(bench), view, new SplittableRandom(1));

    // the production path, wired as PickerApp wires it, fed only the body bytes
    Recorder production = new Recorder();
    RequestParser parser =
        new RequestParser(
            new ParserLimits(
                ParserLimits.DEFAULT_MAX_BODY_BYTES,
                PickerApp.PREFIX_CHARS,
                ParserLimits.DEFAULT_MAX_DEPTH));
    OneHopRouter router =
        new OneHopRouter(
            () ->
                ModelResolver.of(new ModelsConfig(List.of(), null))
                    .withDiscovered(FleetView.POOL, scenario.model(), clients.adapters()),
            pool -> view.pool(),
            new PolicyRegistry(recording(production)),
            new Scheduler(
                new PrefixIndex(
                    PickerApp.PREFIX_BLOCKS_PER_ENDPOINT,
                    PrefixIndex.Forgetting.TAIL_FIRST,
                    PrefixIndex.UNBOUNDED,
                    PickerApp.PREFIX_CHECKPOINTS),
                new InFlightTracker(),
                PrefixHasher.DEFAULT,
                view::nowNanos),
            new Objectives(
                List.of(new Objectives.Objective(SchedulerPolicy.SHEDDABLE_OBJECTIVE, -1))),
            () -> new SplittableRandom(1),
            null);

    int exact = 0;
    int streamed = 0;
    int adapters = 0;
    int sheddable = 0;
    for (BenchRequest r : stream) {
      policy.route(r);
      byte[] body = clients.body(r);
      router.route(
          new RouteInput(
              Long.toString(r.id()),
              parser.parse(ClientRequests.PATH, body),
              r.sheddable() ? SchedulerPolicy.SHEDDABLE_OBJECTIVE : null,
              null));
      SchedulingRequest b = bench.seen.getLast();
      assertThat(b).isEqualTo(production.seen.getLast());
      exact += b.promptTokens() == r.sim().promptTokens() ? 1 : 0;
      streamed += r.streamed() ? 1 : 0;
      adapters += b.adapter() != null ? 1 : 0;
      sheddable += b.sheddable() ? 1 : 0;
    }
    assertThat(bench.seen).hasSize(stream.size());
    // the inputs cover every kind of request, and the estimate is the text's, not the truth
    assertThat(streamed).isBetween(stream.size() / 4, stream.size() * 3 / 4);
    assertThat(adapters).isPositive();
    assertThat(sheddable).isPositive();
    assertThat(exact).isLessThan(stream.size() / 10);
  }

  @Test
  void whatTheClientDoesNotSendCannotChangeWhatTheSchedulerSees() {
    Scenario scenario = scenario();
    List<EngineConfig> configs = Fleets.configs(scenario);
    VirtualCluster cluster = new VirtualCluster(configs, EngineListener.NONE);
    Recorder recorder = new Recorder();
    FleetView view = new FleetView(configs, cluster, null, ClientRequests.of(scenario));
    SchedulerPolicy policy =
        new SchedulerPolicy("pointsman", recording(recorder), view, new SplittableRandom(1));
    SimRequest sim = RequestStream.generate(scenario, 20, 30_000, 3, 1).getFirst().sim();
    // the same prompt with another answer length and workload kind
    BenchRequest a = new BenchRequest(sim, "sharegpt", false, true, false);
    BenchRequest b =
        new BenchRequest(
            new SimRequest(
                sim.id(), sim.arrivalMs(), sim.prompt(), sim.outputTokens() * 7, "", 123),
            "rag",
            false,
            true,
            false);
    policy.route(a);
    policy.route(b);
    assertThat(recorder.seen.get(1)).isEqualTo(recorder.seen.get(0));
  }
}
