package dev.pointsman.bench.routing.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.bench.routing.scenario.TextMix;
import dev.pointsman.bench.routing.workload.BenchRequest;
import dev.pointsman.bench.routing.workload.ClientRequests;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.Plugins;
import dev.pointsman.picker.scheduling.PolicyConfig;
import dev.pointsman.sim.engine.EngineConfig;
import dev.pointsman.sim.engine.EngineListener;
import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.engine.Segment;
import dev.pointsman.sim.engine.SimRequest;
import dev.pointsman.sim.engine.VirtualCluster;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The bench's pointsman learns what the picker learns, at the moment the picker learns it: from the
 * first byte of a streamed response, nothing from a non-streamed one (whose first byte is its
 * last), and it holds a request's prefill until that first byte.
 */
class SchedulerPolicyTest {
  private final EngineConfig h100 =
      EngineConfig.of("p0", "base", GpuProfiles.builtIn().get("H100-80"));
  private final VirtualCluster cluster = new VirtualCluster(List.of(h100), EngineListener.NONE);
  private final FleetView view =
      new FleetView(
          List.of(h100), cluster, null, new ClientRequests("base", Set.of(), TextMix.proseOnly()));
  private final SchedulerPolicy policy =
      new SchedulerPolicy(
          "pointsman", Plugins.build(PolicyConfig.defaults()), view, new SplittableRandom(1));
  // the engine's events reach the policy through the gateway, which times the first byte
  private final Gateway gateway =
      new Gateway(List.of(policy), new EnvoyBalancer(1, 1, new SplittableRandom(2)));

  private static BenchRequest request(long id, boolean streamed) {
    return new BenchRequest(
        new SimRequest(id, 0, List.of(new Segment(id, 800)), 100, "", 1L << 50 | id),
        "sharegpt",
        false,
        streamed,
        false);
  }

  private long observations() {
    return policy.scheduler().latencyModel().observations(FleetView.address(0));
  }

  private InFlightTracker.Load load() {
    return policy.scheduler().inFlight().load(FleetView.address(0));
  }

  @Test
  void aStreamedRequestTeachesItsTimeToFirstTokenAtTheFirstToken() {
    BenchRequest r = request(1, true);
    assertThat(gateway.route(r).outcome()).isEqualTo(Route.Outcome.ROUTED);
    assertThat(load().prefillRequests()).isEqualTo(1);
    cluster.runUntil(80);
    gateway.onFirstToken(r, 0);
    assertThat(observations()).isEqualTo(1);
    assertThat(load().prefillRequests()).isZero();
    cluster.runUntil(1500);
    gateway.onFinish(r, 0);
    assertThat(policy.scheduler().tpotModel().observations(FleetView.address(0))).isEqualTo(1);
    assertThat(load().liveRequests()).isZero();
  }

  @Test
  void aNonStreamedRequestTeachesNothingAndHoldsItsPrefillUntilItsOnlyByte() {
    BenchRequest r = request(2, false);
    gateway.route(r);
    cluster.runUntil(80);
    gateway.onFirstToken(r, 0);
    // the client gets nothing yet: the picker has no first byte to time
    assertThat(observations()).isZero();
    assertThat(load().prefillRequests()).isEqualTo(1);
    cluster.runUntil(1500);
    gateway.onFinish(r, 0);
    assertThat(observations()).isZero();
    assertThat(policy.scheduler().tpotModel().observations(FleetView.address(0))).isZero();
    assertThat(load().liveRequests()).isZero();
    assertThat(load().prefillRequests()).isZero();
  }

  @Test
  void aRequestThatFailedBeforeAnyTokenTeachesNothingAndIsReleased() {
    BenchRequest r = request(3, true);
    gateway.route(r);
    gateway.onFailed(r, 0);
    assertThat(observations()).isZero();
    assertThat(load().liveRequests()).isZero();
    assertThat(load().prefillRequests()).isZero();
  }

  @Test
  void pointsmanHashesAWholeLongPromptAndGieDefaultItsFirst256Blocks() {
    BenchRequest r =
        new BenchRequest(
            new SimRequest(9, 0, List.of(new Segment(9, 8_000)), 100, "", 1L << 50 | 9),
            "sharegpt",
            false,
            true,
            false);
    SchedulerPolicy gie =
        (SchedulerPolicy) Policies.create("gie-default", view, new SplittableRandom(1));

    assertThat(policy.route(r).outcome()).isEqualTo(Route.Outcome.ROUTED);
    assertThat(gie.route(r).outcome()).isEqualTo(Route.Outcome.ROUTED);

    int chars = view.requests().promptPrefix(r).length();
    assertThat(chars).isGreaterThan(256 * 64);
    assertThat(policy.scheduler().prefixIndex().size(FleetView.address(0))).isEqualTo(chars / 64);
    assertThat(gie.scheduler().prefixIndex().size(FleetView.address(0))).isEqualTo(256);
  }
}
