package dev.pointsman.fleet.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The InferencePoolImport API as the fleet reads it, untyped, so that fields added by a later
 * release of the alpha API are ignored rather than failing the watch. Of each import it reads the
 * name (the exported InferencePool's name; the API keeps namespace and name the same) and, from
 * {@code status.controllers[].exportingClusters[].name}, the clusters that export it, united over
 * the controllers. Conditions, parents and anything of an unexpected shape are ignored.
 */
final class PoolImports {
  static final String GROUP = "inference.networking.x-k8s.io";
  static final String VERSION = "v1alpha1";
  static final String KIND = "InferencePoolImport";
  static final String PLURAL = "inferencepoolimports";

  static final ResourceDefinitionContext CONTEXT =
      new ResourceDefinitionContext.Builder()
          .withGroup(GROUP)
          .withVersion(VERSION)
          .withKind(KIND)
          .withPlural(PLURAL)
          .withNamespaced(true)
          .build();

  private PoolImports() {}

  /** The clusters an import's status names as exporting it (possibly none). */
  static Set<String> exporters(GenericKubernetesResource imported) {
    Set<String> names = new HashSet<>();
    Object status = imported.getAdditionalProperties().get("status");
    for (Map<?, ?> controller : maps(status instanceof Map<?, ?> m ? m.get("controllers") : null)) {
      for (Map<?, ?> cluster : maps(controller.get("exportingClusters"))) {
        if (cluster.get("name") instanceof String name && !name.isBlank()) {
          names.add(name);
        }
      }
    }
    return names;
  }

  /** The maps in {@code value} when it is a list; nothing otherwise. */
  private static List<Map<?, ?>> maps(Object value) {
    if (!(value instanceof List<?> list)) {
      return List.of();
    }
    return list.stream().filter(Map.class::isInstance).<Map<?, ?>>map(Map.class::cast).toList();
  }

  /** What kind of failure {@code t} is, from the HTTP status the API server answered, if any. */
  static PoolImportWatch.Failure classify(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof KubernetesClientException k && k.getCode() > 0) {
        return switch (k.getCode()) {
          case 404 -> PoolImportWatch.Failure.CRD_MISSING;
          case 401, 403 -> PoolImportWatch.Failure.FORBIDDEN;
          default -> PoolImportWatch.Failure.ERROR;
        };
      }
      if (c instanceof IOException) {
        return PoolImportWatch.Failure.UNREACHABLE;
      }
    }
    return PoolImportWatch.Failure.ERROR;
  }
}
