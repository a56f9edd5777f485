package dev.pointsman.picker.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * @param targetRef the InferencePool this policy is for; absent: the namespace default
 * @param filters filters in order (absent: the default filters)
 * @param scorers weighted scorers (absent: Pointsman's default blend)
 * @param picker the picker (absent: {@code max-score-picker})
 * @param fallbacks fallback endpoints returned after the primary, 0..8
 * @param saturation when the pool counts as saturated
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PickerPolicySpec(
    TargetRef targetRef,
    List<FilterSpec> filters,
    List<ScorerSpec> scorers,
    PickerSpec picker,
    Integer fallbacks,
    SaturationSpec saturation) {}
