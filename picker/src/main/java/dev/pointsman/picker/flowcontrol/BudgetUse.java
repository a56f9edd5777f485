package dev.pointsman.picker.flowcontrol;

import java.util.Objects;

/**
 * What one picker replica has charged to one budget since it started, net of what it gave back: the
 * figure replicas exchange so that each folds the others' use into its own buckets ({@link
 * TokenBudgets#foldPeer}).
 *
 * @param tenant the budget's fairness id
 * @param model the budget's model, or null for the tenant-wide budget
 * @param tokens tokens charged, net of settlements and releases (may fall below an earlier value)
 * @param requests requests charged, net of releases
 */
public record BudgetUse(String tenant, String model, long tokens, long requests) {
  public BudgetUse {
    Objects.requireNonNull(tenant, "tenant");
    if (tenant.isBlank()) {
      throw new IllegalArgumentException("tenant: '' (expected a fairness id)");
    }
    if (model != null && model.isEmpty()) {
      model = null;
    }
  }
}
