package dev.pointsman.picker.flowcontrol;

import java.util.Objects;

/**
 * A tenant's allowance per minute, for one model or all.
 *
 * @param tenant the fairness id it applies to
 * @param model the model it applies to, or null for every model the tenant uses (a budget for the
 *     exact model wins)
 * @param tokensPerMinute prompt plus generated tokens per minute, or 0 for no token limit
 * @param requestsPerMinute requests per minute, or 0 for no request limit
 */
public record Budget(String tenant, String model, long tokensPerMinute, long requestsPerMinute) {
  public Budget {
    Objects.requireNonNull(tenant, "tenant");
    if (tenant.isBlank()) {
      throw new IllegalArgumentException("fairnessId: '' (expected a tenant)");
    }
    if (tokensPerMinute < 0) {
      throw new IllegalArgumentException(
          "tokensPerMinute: " + tokensPerMinute + " (expected >= 0, 0 for no limit)");
    }
    if (requestsPerMinute < 0) {
      throw new IllegalArgumentException(
          "requestsPerMinute: " + requestsPerMinute + " (expected >= 0, 0 for no limit)");
    }
    if (tokensPerMinute == 0 && requestsPerMinute == 0) {
      throw new IllegalArgumentException(
          "tokensPerMinute: 0, requestsPerMinute: 0 (expected at least one limit)");
    }
  }
}
