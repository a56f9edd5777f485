package dev.pointsman.picker.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * Whether the picker accepted a TenantBudget, and what the budget had left when last looked at.
 *
 * @param observedGeneration the {@code metadata.generation} the conditions describe
 * @param conditions {@code Accepted} (True, or False with reason {@code Invalid} or {@code
 *     Conflicted} and a message naming the bad field)
 * @param remainingTokens tokens left in the budget's minute, as the status-writing replica saw it
 *     (with replication, the cluster's balance); absent without a token limit
 * @param remainingRequests requests left likewise; absent without a request limit
 * @param observedAt when those were read (RFC 3339)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TenantBudgetStatus(
    Long observedGeneration,
    List<Condition> conditions,
    Long remainingTokens,
    Long remainingRequests,
    String observedAt) {}
