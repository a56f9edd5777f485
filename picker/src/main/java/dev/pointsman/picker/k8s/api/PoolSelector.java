package dev.pointsman.picker.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/** An InferencePool's label selector: every entry must match (AND). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PoolSelector(Map<String, String> matchLabels) {}
