package dev.pointsman.picker.k8s.api;

/** A port number, 1..65535. */
public record Port(Integer number) {}
