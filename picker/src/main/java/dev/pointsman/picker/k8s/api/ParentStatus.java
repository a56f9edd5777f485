package dev.pointsman.picker.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/** One parent's (gateway's) view of an InferencePool. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ParentStatus(List<Condition> conditions, ParentReference parentRef) {}
