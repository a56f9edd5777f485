package dev.pointsman.picker.k8s.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * @param model the model id clients send
 * @param aliases other ids meaning the same model
 * @param adapters LoRA adapter ids served on top of this base model, on the same pools
 * @param pools the InferencePools serving it, with canary weights
 * @param criticality {@code Critical} (default), {@code Standard} or {@code Sheddable}
 * @param defaultModel whether requests naming no model get this one
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ModelRouteSpec(
    String model,
    List<String> aliases,
    List<String> adapters,
    List<PoolRef> pools,
    String criticality,
    Boolean defaultModel) {}
