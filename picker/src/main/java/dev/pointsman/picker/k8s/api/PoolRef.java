package dev.pointsman.picker.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A pool serving a model.
 *
 * @param name the InferencePool's name (same namespace)
 * @param weight relative share of the model's traffic, 0..100 (0 drains the pool); 1 by default
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PoolRef(String name, Integer weight) {}
