package dev.pointsman.bench.routing.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.bench.routing.policy.Route;
import dev.pointsman.bench.routing.scenario.FlowSpec;
import dev.pointsman.bench.routing.scenario.ProductionSpec;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.Scenarios;
import dev.pointsman.bench.routing.workload.BenchRequest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The picker's flow control in the bench, in virtual time (issue 18). */
class FlowControlRunTest {
  private static Scenario mixed;
  private static Capacity capacity;

  @BeforeAll
  static void calibrate() {
    mixed =
        Scenarios.load("scenarios/flow/f2-mixed-priority.yaml")
            .quickVersion()
            .withMeasuredWindowTimes(0.5);
    capacity = Capacity.calibrate(mixed, 600, 5);
  }

  private static Scenario withFlow(Scenario s, FlowSpec flow) {
    ProductionSpec p = s.production();
    return s.withProduction(
        s.name() + "-flow-" + flow.enabled(),
        new ProductionSpec(
            p.pickerReplicas(), p.envoys(), p.streamedFraction(), p.text(), p.sharing(), flow));
  }

  @Test
  void aRequestQueuedByFlowControlIsDispatchedLaterAndItsWaitCountsInItsTtft() {
    PolicyRun run = PolicyRun.executed(mixed, capacity, "pointsman", 1.5, 1);
    int waited = 0;
    for (int i = 0; i < run.stream().size(); i++) {
      BenchRequest r = run.stream().get(i);
      double sent = run.sentMs(i);
      if (run.outcome(i) == Route.Outcome.ROUTED
          && sent > r.arrivalMs() + 1
          && !Double.isNaN(run.firstMs(i))) {
        waited++;
        // TTFT is measured from the arrival at the gateway: the wait is in it
        double ttft = run.firstMs(i) - r.arrivalMs();
        assertThat(ttft).isGreaterThanOrEqualTo(sent - r.arrivalMs());
      }
      assertThat(run.outcome(i)).isNotEqualTo(Route.Outcome.QUEUED);
    }
    assertThat(waited).as("requests that waited in the gateway, then were served").isPositive();
  }

  @Test
  void sheddableRequestsAreRefusedBeforeCriticalOnesInAnOverload() {
    FlowClasses.Classed c = PolicyRun.runClassed(mixed, capacity, "pointsman", 1.5, 1);
    Map<String, FlowClasses> by =
        c.classes().stream().collect(Collectors.toMap(FlowClasses::name, Function.identity()));
    FlowClasses critical = by.get("priority=1");
    FlowClasses sheddable = by.get("priority=-1");
    assertThat(sheddable.shed()).isPositive();
    assertThat((double) critical.shed() / critical.requests())
        .isLessThan((double) sheddable.shed() / sheddable.requests() / 4);
    assertThat(critical.p99TtftMs()).isLessThan(sheddable.p99TtftMs());
  }

  @Test
  void aTenantBeyondItsBudgetIsRefusedWhatExceedsItAndTheOthersNothing() {
    Scenario budgeted = Scenarios.load("scenarios/flow/f1-noisy-bursts-budget.yaml").quickVersion();
    assertThat(budgeted.production().flowControl().budgets()).hasSize(4);
    Capacity c = Capacity.calibrate(budgeted, 600, 5);
    PolicyRun run = PolicyRun.executed(budgeted, c, "pointsman", 1.2, 1);
    Map<String, int[]> byTenant = new HashMap<>(); // offered, routed, shed
    for (int i = 0; i < run.stream().size(); i++) {
      int[] n = byTenant.computeIfAbsent(run.stream().get(i).tenant(), k -> new int[3]);
      n[0]++;
      n[1] += run.outcome(i) == Route.Outcome.ROUTED ? 1 : 0;
      n[2] += run.outcome(i) == Route.Outcome.SHED ? 1 : 0;
    }
    // 1,800 requests a minute: a full bucket when the run starts, then its refill while they arrive
    long allowed = 1800 + Math.round(1800 * budgeted.durationSeconds() / 60);
    int[] noisy = byTenant.get("noisy");
    assertThat(noisy[0]).as("the neighbour's requests").isGreaterThan((int) allowed + 500);
    assertThat(noisy[1]).as("the neighbour's requests served").isLessThanOrEqualTo((int) allowed);
    assertThat(noisy[2]).as("the neighbour's requests refused").isEqualTo(noisy[0] - noisy[1]);
    for (String t : List.of("a", "b", "c")) {
      assertThat(byTenant.get(t)[2]).as("tenant %s refused", t).isZero();
      assertThat(byTenant.get(t)[1]).as("tenant %s served", t).isEqualTo(byTenant.get(t)[0]);
    }
  }

  @Test
  void aScenariosBudgetsAreCheckedAsThePickersAre() {
    String base =
        """
        name: bad
        fleet: [{gpu: A100-80, count: 1}]
        loads: [0.5]
        workload: [{kind: sharegpt, tenant: a}]
        production: {flowControl: {enabled: true, budgets: [%s]}}
        """;
    assertThatThrownBy(
            () ->
                Scenarios.parse(
                    base.formatted(
                        "{fairnessId: a, requestsPerMinute: 60}, {fairnessId: a, tokensPerMinute: 9}"),
                    "bad.yaml"))
        .hasMessageContaining("production.flowControl.budgets: fairnessId 'a'")
        .hasMessageContaining("already has a budget");
    assertThatThrownBy(() -> Scenarios.parse(base.formatted("{fairnessId: a}"), "bad.yaml"))
        .hasMessageContaining("expected at least one limit");
    Scenario ok =
        Scenarios.parse(base.formatted("{fairnessId: a, tokensPerMinute: 1000}"), "ok.yaml");
    assertThat(ok.production().flowControl().budgets())
        .singleElement()
        .satisfies(b -> assertThat(b.toBudget().tokensPerMinute()).isEqualTo(1000));
  }

  @Test
  void withoutTheFieldARunTakesTheOldPath() {
    Scenario s1 = Scenarios.load("s1").quickVersion().withMeasuredWindowTimes(0.5);
    assertThat(s1.production().flowControl().enabled()).isFalse();
    Capacity c = Capacity.calibrate(s1, 600, 5);
    PolicyRun plain = PolicyRun.executed(s1, c, "pointsman", 0.9, 1);
    for (int i = 0; i < plain.stream().size(); i++) {
      double sent = plain.sentMs(i);
      // nobody waits: a request reaches its pod at its arrival, or never
      assertThat(Double.isNaN(sent) || sent == plain.stream().get(i).arrivalMs()).isTrue();
      assertThat(plain.outcome(i)).isNotEqualTo(Route.Outcome.QUEUED);
    }
    RunResult before = PolicyRun.run(s1, c, "pointsman", 0.9, 1);
    RunResult off = PolicyRun.run(withFlow(s1, FlowSpec.off()), c, "pointsman", 0.9, 1);
    assertThat(off).usingRecursiveComparison().isEqualTo(before);
  }

  @Test
  void workloadPartsValidateTenantAndPriority() {
    String base =
        """
        name: bad
        fleet: [{gpu: A100-80, count: 1}]
        loads: [0.5]
        workload: [{kind: sharegpt, %s}]
        """;
    assertThatThrownBy(() -> Scenarios.parse(base.formatted("tenant: 'a b'"), "bad.yaml"))
        .hasMessageContaining("tenant");
    assertThatThrownBy(() -> Scenarios.parse(base.formatted("priority: 1000"), "bad.yaml"))
        .hasMessageContaining("priority");
    Scenario ok = Scenarios.parse(base.formatted("tenant: a, priority: -1"), "ok.yaml");
    assertThat(ok.workload().get(0).tenant()).isEqualTo("a");
    List<BenchRequest> stream =
        dev.pointsman.bench.routing.workload.RequestStream.generate(ok, 5, 2000, 1);
    assertThat(stream).isNotEmpty().allMatch(r -> r.sheddable() && "a".equals(r.tenant()));
  }
}
