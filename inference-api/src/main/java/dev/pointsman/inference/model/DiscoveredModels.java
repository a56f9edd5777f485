package dev.pointsman.inference.model;

import java.util.Objects;
import java.util.Set;

/**
 * The models one pool reports on its {@code /v1/models} endpoint.
 *
 * @param baseModel the base model's id
 * @param aliases further ids the pool serves the base model under
 * @param adapters the LoRA adapters loaded on top of the base model
 */
public record DiscoveredModels(String baseModel, Set<String> aliases, Set<String> adapters) {
  public DiscoveredModels {
    if (Names.isBlank(baseModel)) {
      throw new IllegalArgumentException(
          "baseModel: " + Names.quote(baseModel) + " (expected a model id)");
    }
    aliases = Set.copyOf(aliases);
    adapters = Set.copyOf(adapters);
  }

  /** A base model with adapters and no aliases. */
  public static DiscoveredModels of(String baseModel, Set<String> adapters) {
    return new DiscoveredModels(baseModel, Set.of(), Objects.requireNonNull(adapters, "adapters"));
  }

  /** Parses an OpenAI {@code /v1/models} list response. */
  public static DiscoveredModels fromModelsList(byte[] json) {
    return ModelListJson.parse(json);
  }
}
