package dev.pointsman.picker.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * @param fairnessId the tenant: the value of the fairness header its requests carry
 * @param model the model (the body's {@code model}) it applies to; absent: all the tenant's models
 * @param tokensPerMinute prompt plus generated tokens per minute; absent or 0: no token limit
 * @param requestsPerMinute requests per minute; absent or 0: no request limit
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TenantBudgetSpec(
    String fairnessId, String model, Long tokensPerMinute, Long requestsPerMinute) {}
