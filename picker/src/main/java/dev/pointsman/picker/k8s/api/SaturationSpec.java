package dev.pointsman.picker.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * @param queueThreshold waiting requests at which an endpoint is full (>= 1)
 * @param kvThreshold KV-cache use at which an endpoint is full, (0, 1]
 * @param retryAfterSeconds back-off suggested to shed clients (>= 1)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SaturationSpec(
    Integer queueThreshold, Double kvThreshold, Integer retryAfterSeconds) {}
