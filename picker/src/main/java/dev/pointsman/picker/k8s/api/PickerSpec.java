package dev.pointsman.picker.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The picker.
 *
 * @param type {@code max-score-picker} or {@code weighted-random-picker}
 * @param topK candidates sampled from (weighted-random-picker only)
 * @param temperature softmax temperature (weighted-random-picker only)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PickerSpec(String type, Integer topK, Double temperature) {}
