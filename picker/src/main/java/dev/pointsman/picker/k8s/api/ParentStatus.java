package dev.pointsman.picker.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * One parent's (gateway's) view of an InferencePool.
 *
 * @param controllerName the controller that wrote the entry (upstream v1.1+)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ParentStatus(
    List<Condition> conditions, ParentReference parentRef, String controllerName) {}
