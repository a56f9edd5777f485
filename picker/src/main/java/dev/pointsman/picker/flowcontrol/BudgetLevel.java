package dev.pointsman.picker.flowcontrol;

import java.util.Objects;

/**
 * What one budget holds now: the tokens and requests left in its buckets, as the replica that read
 * it sees the cluster's balance. A replica that joins late, or a side of a healed partition, takes
 * it from a peer's snapshot ({@link TokenBudgets#adoptLevels}).
 *
 * @param budget the budget (tenant, model and limits)
 * @param tokens tokens left (may be negative); ignored without a token limit
 * @param requests requests left; ignored without a request limit
 */
public record BudgetLevel(Budget budget, double tokens, double requests) {
  public BudgetLevel {
    Objects.requireNonNull(budget, "budget");
    if (Double.isNaN(tokens) || Double.isNaN(requests)) {
      throw new IllegalArgumentException(
          "budget level of " + budget.tenant() + ": tokens " + tokens + ", requests " + requests);
    }
  }
}
