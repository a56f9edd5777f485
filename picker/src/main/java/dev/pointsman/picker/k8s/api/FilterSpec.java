package dev.pointsman.picker.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * A filter by type, e.g. {@code lora-capacity-filter}.
 *
 * @param type kebab-case filter type
 * @param parameters numeric parameters, e.g. tpot-slo-filter's {@code objectiveMs}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FilterSpec(String type, Map<String, Double> parameters) {}
