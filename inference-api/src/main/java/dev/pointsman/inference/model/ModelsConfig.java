package dev.pointsman.inference.model;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The models the gateway serves and where (a section of a role's YAML configuration).
 *
 * @param models the served models; names and aliases unique across entries
 * @param defaultModel the model used when a request names none, or null to require one
 */
public record ModelsConfig(List<ModelEntry> models, String defaultModel) {
  public ModelsConfig {
    models = models == null ? List.of() : List.copyOf(models);
    Map<String, Integer> owners = new HashMap<>();
    for (int i = 0; i < models.size(); i++) {
      claim(owners, models.get(i).name(), i, "models[" + i + "].name");
      List<String> aliases = models.get(i).aliases();
      for (int j = 0; j < aliases.size(); j++) {
        claim(owners, aliases.get(j), i, "models[" + i + "].aliases[" + j + "]");
      }
    }
    for (int i = 0; i < models.size(); i++) {
      checkBase(models, i);
    }
    if (defaultModel != null && !owners.containsKey(defaultModel)) {
      throw new IllegalArgumentException(
          "defaultModel: " + Names.quote(defaultModel) + " (expected a name or alias in models)");
    }
  }

  private static void claim(Map<String, Integer> owners, String id, int index, String path) {
    Integer previous = owners.putIfAbsent(id, index);
    if (previous != null) {
      throw new IllegalArgumentException(
          path + ": " + Names.quote(id) + " (already used by models[" + previous + "])");
    }
  }

  private static void checkBase(List<ModelEntry> models, int index) {
    String base = models.get(index).baseModel();
    if (base == null) {
      return;
    }
    boolean found = models.stream().anyMatch(m -> m.name().equals(base) && !m.isAdapter());
    if (!found) {
      throw new IllegalArgumentException(
          "models["
              + index
              + "].baseModel: "
              + Names.quote(base)
              + " (expected the name of a base model in models)");
    }
  }
}
