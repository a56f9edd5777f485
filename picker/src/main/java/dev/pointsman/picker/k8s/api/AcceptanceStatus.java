package dev.pointsman.picker.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * The status of Pointsman's own resources: whether the picker accepted the spec.
 *
 * @param observedGeneration the {@code metadata.generation} the conditions describe
 * @param conditions {@code Accepted} (True, or False with reason {@code Invalid} or {@code
 *     Conflicted} and a message naming the bad field)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AcceptanceStatus(Long observedGeneration, List<Condition> conditions) {}
