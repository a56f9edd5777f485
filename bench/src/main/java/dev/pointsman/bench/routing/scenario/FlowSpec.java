package dev.pointsman.bench.routing.scenario;

import dev.pointsman.picker.config.FlowControlSection;
import java.util.List;

/**
 * The picker's own flow control in front of the fleet ({@code production.flowControl}, issue 18):
 * with it, the picker's policies ({@code pointsman}, custom picker policies) run behind {@code
 * FlowGate}, so a request for a saturated pool waits in the gateway and is routed when a scrape or
 * a release shows room; the baselines ship no flow control and ignore it. Off unless a scenario
 * asks.
 *
 * @param enabled whether the picker's policies run behind flow control (default false)
 * @param ttlMillis how long a request may wait before it is refused (default 5000)
 * @param maxQueued requests that may wait at once, per picker replica (default 10000)
 * @param sheddableHeadroom the share of the queue threshold kept for non-sheddable work (the
 *     picker's {@code flowControl.sheddableHeadroom}, default 0.8)
 * @param tenantShareLoad the picker's {@code flowControl.tenantShareLoad} (default off)
 * @param budgets the picker's {@code flowControl.budgets}, written as an operator writes them
 *     ({@code {fairnessId, model, tokensPerMinute, requestsPerMinute}}): a tenant's requests beyond
 *     its budget are refused at once (shed); none by default
 */
public record FlowSpec(
    Boolean enabled,
    Integer ttlMillis,
    Integer maxQueued,
    Double sheddableHeadroom,
    Double tenantShareLoad,
    List<FlowControlSection.BudgetEntry> budgets) {
  public FlowSpec {
    enabled = enabled != null && enabled;
    ttlMillis = Check.atLeast("production.flowControl.ttlMillis", ttlMillis, 5000, 1);
    maxQueued = Check.atLeast("production.flowControl.maxQueued", maxQueued, 10_000, 1);
    sheddableHeadroom = sheddableHeadroom == null ? 0.8 : sheddableHeadroom;
    tenantShareLoad = tenantShareLoad == null ? Double.POSITIVE_INFINITY : tenantShareLoad;
    budgets = budgets == null ? List.of() : List.copyOf(budgets);
    try {
      FlowControlSection.tokenBudgets(budgets, () -> 0L); // no tenant and model twice
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("production.flowControl." + e.getMessage(), e);
    }
    if (!(tenantShareLoad >= 0)) {
      throw new IllegalArgumentException(
          "production.flowControl.tenantShareLoad: " + tenantShareLoad + " (expected >= 0)");
    }
    if (!(sheddableHeadroom >= 0 && sheddableHeadroom < 1)) {
      throw new IllegalArgumentException(
          "production.flowControl.sheddableHeadroom: "
              + sheddableHeadroom
              + " (expected in [0, 1))");
    }
  }

  public static FlowSpec off() {
    return new FlowSpec(false, null, null, null, null, null);
  }
}
