package dev.pointsman.picker.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** Written by the gateways (parents) that use the pool; Pointsman only reads it. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InferencePoolStatus(List<ParentStatus> parents) {}
