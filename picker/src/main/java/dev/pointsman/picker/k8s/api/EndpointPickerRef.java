package dev.pointsman.picker.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The endpoint picker of an InferencePool.
 *
 * @param group API group of the referent ("" for core)
 * @param kind kind of the referent (Service by default)
 * @param name name of the referent
 * @param port the picker's service port (required for a Service)
 * @param failureMode {@code FailOpen} or {@code FailClose} (the default)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EndpointPickerRef(
    String group, String kind, String name, Port port, String failureMode) {}
