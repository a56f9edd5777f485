package dev.pointsman.fleet.k8s;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * InferencePoolImports on a (mock) API server as a multi-cluster controller writes them: the CRD
 * with its status subresource, and imports whose status names the exporting clusters, carrying
 * fields this fleet does not know (a later release's) besides.
 */
public final class MockImports {
  private MockImports() {}

  /** fabric8's mock API server in CRUD mode over {@code dispatcher}, plain HTTP, started. */
  public static KubernetesMockServer server(KubernetesCrudDispatcher dispatcher) {
    KubernetesMockServer server =
        new KubernetesMockServer(
            new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
    server.init();
    return server;
  }

  /** Installs the InferencePoolImport CRD (v1alpha1, namespaced, status subresource). */
  public static void installCrd(KubernetesClient admin) {
    admin
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .resource(
            new CustomResourceDefinitionBuilder()
                .withNewMetadata()
                .withName(PoolImports.PLURAL + "." + PoolImports.GROUP)
                .endMetadata()
                .withNewSpec()
                .withGroup(PoolImports.GROUP)
                .withScope("Namespaced")
                .withNewNames()
                .withKind(PoolImports.KIND)
                .withPlural(PoolImports.PLURAL)
                .withSingular("inferencepoolimport")
                .endNames()
                .addNewVersion()
                .withName(PoolImports.VERSION)
                .withServed(true)
                .withStorage(true)
                .withNewSubresources()
                .withNewStatus()
                .endStatus()
                .endSubresources()
                .withNewSchema()
                .withNewOpenAPIV3Schema()
                .withType("object")
                .withXKubernetesPreserveUnknownFields(true)
                .endOpenAPIV3Schema()
                .endSchema()
                .endVersion()
                .endSpec()
                .build())
        .create();
  }

  /** Import {@code pool} in {@code namespace}. */
  public static Resource<GenericKubernetesResource> imported(
      KubernetesClient admin, String namespace, String pool) {
    return admin
        .genericKubernetesResources(PoolImports.CONTEXT)
        .inNamespace(namespace)
        .withName(pool);
  }

  /** Creates import {@code pool} if need be and writes its status: exported by {@code clusters}. */
  public static void exportedBy(
      KubernetesClient admin, String namespace, String pool, String... clusters) {
    if (imported(admin, namespace, pool).get() == null) {
      admin
          .genericKubernetesResources(PoolImports.CONTEXT)
          .inNamespace(namespace)
          .resource(
              new GenericKubernetesResourceBuilder()
                  .withApiVersion(PoolImports.GROUP + "/" + PoolImports.VERSION)
                  .withKind(PoolImports.KIND)
                  .withNewMetadata()
                  .withName(pool)
                  .withNamespace(namespace)
                  .endMetadata()
                  .addToAdditionalProperties("spec", Map.of("aKnobOfALaterRelease", 1))
                  .build())
          .create();
    }
    List<Map<String, Object>> exporting = new ArrayList<>();
    for (String name : clusters) {
      exporting.add(Map.of("name", name));
    }
    GenericKubernetesResource current = imported(admin, namespace, pool).get();
    current.setAdditionalProperty(
        "status",
        Map.of(
            "controllers",
            List.of(
                Map.of(
                    "name",
                    "example.net/import-controller",
                    "exportingClusters",
                    exporting,
                    "conditions",
                    List.of(Map.of("type", "Accepted", "status", "True")),
                    "aFieldOfALaterRelease",
                    "ignored"))));
    admin
        .genericKubernetesResources(PoolImports.CONTEXT)
        .inNamespace(namespace)
        .resource(current)
        .updateStatus();
  }
}
