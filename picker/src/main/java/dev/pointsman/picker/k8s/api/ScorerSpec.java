package dev.pointsman.picker.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * A weighted scorer.
 *
 * @param type kebab-case scorer type, e.g. {@code queue-scorer}
 * @param weight 0..100 (0 disables it)
 * @param parameters numeric parameters, e.g. {@code meanPromptTokens}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ScorerSpec(String type, Double weight, Map<String, Double> parameters) {}
