package dev.pointsman.picker.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/** The parent (usually a Gateway) a {@link ParentStatus} belongs to. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ParentReference(String group, String kind, String name, String namespace) {}
