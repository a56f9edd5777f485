package dev.pointsman.picker.k8s;

import dev.pointsman.picker.flowcontrol.Budget;
import dev.pointsman.picker.k8s.api.TenantBudget;
import dev.pointsman.picker.k8s.api.TenantBudgetSpec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * TenantBudgets to the budgets flow control enforces, with a verdict for each: invalid specs are
 * refused with the bad field named, and of two budgets for the same tenant and model the older one
 * wins (the newer is Conflicted). Pure.
 */
final class BudgetCatalog {
  private BudgetCatalog() {}

  /** The accepted budgets, every object's verdict by name, and each accepted object's budget. */
  record Outcome(
      List<Budget> budgets, Map<String, Verdict> verdicts, Map<String, Budget> accepted) {}

  static Outcome build(Collection<TenantBudget> objects) {
    List<TenantBudget> ordered = new ArrayList<>(objects);
    ordered.sort(Objects2.OLDEST_FIRST);
    List<Budget> budgets = new ArrayList<>();
    Map<String, String> owners = new HashMap<>();
    Map<String, Verdict> verdicts = new HashMap<>();
    Map<String, Budget> accepted = new HashMap<>();
    for (TenantBudget object : ordered) {
      String name = object.getMetadata().getName();
      long generation = Objects2.generation(object);
      Budget budget;
      try {
        budget = budget(object.getSpec());
      } catch (IllegalArgumentException e) {
        verdicts.put(name, Verdict.invalid(generation, "spec." + e.getMessage()));
        continue;
      }
      String key = budget.tenant() + "\u0000" + (budget.model() == null ? "" : budget.model());
      String owner = owners.putIfAbsent(key, name);
      if (owner != null) {
        verdicts.put(
            name,
            Verdict.conflicted(
                generation,
                "fairnessId '"
                    + budget.tenant()
                    + "' model "
                    + (budget.model() == null ? "(all)" : "'" + budget.model() + "'")
                    + " already has a budget: TenantBudget '"
                    + owner
                    + "'"));
        continue;
      }
      budgets.add(budget);
      accepted.put(name, budget);
      verdicts.put(name, Verdict.accepted(generation, "enforced by flow control"));
    }
    return new Outcome(List.copyOf(budgets), Map.copyOf(verdicts), Map.copyOf(accepted));
  }

  private static Budget budget(TenantBudgetSpec spec) {
    if (spec == null || spec.fairnessId() == null) {
      throw new IllegalArgumentException("fairnessId: absent (expected a tenant)");
    }
    String model = spec.model() == null || spec.model().isEmpty() ? null : spec.model();
    return new Budget(
        spec.fairnessId(),
        model,
        spec.tokensPerMinute() == null ? 0 : spec.tokensPerMinute(),
        spec.requestsPerMinute() == null ? 0 : spec.requestsPerMinute());
  }
}
