package dev.pointsman.picker.k8s.api;

/** A filter by type, e.g. {@code lora-capacity-filter}. */
public record FilterSpec(String type) {}
