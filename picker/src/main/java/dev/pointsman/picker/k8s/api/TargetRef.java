package dev.pointsman.picker.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/** A reference to an InferencePool in the policy's namespace. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TargetRef(String group, String kind, String name) {}
