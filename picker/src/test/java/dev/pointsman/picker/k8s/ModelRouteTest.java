package dev.pointsman.picker.k8s;

import static dev.pointsman.picker.k8s.K8sObjects.pool;
import static dev.pointsman.picker.k8s.K8sObjects.route;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.inference.error.RequestRejectedException;
import dev.pointsman.inference.model.PoolTarget;
import dev.pointsman.inference.model.Resolution;
import dev.pointsman.picker.k8s.api.InferencePool;
import dev.pointsman.picker.k8s.api.ModelRoute;
import dev.pointsman.picker.k8s.api.ModelRouteSpec;
import dev.pointsman.picker.k8s.api.PoolRef;
import dev.pointsman.testing.Await;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** ModelRoutes become the model resolver: names, aliases, adapters, weights, default, status. */
class ModelRouteTest {
  private MockCluster cluster;
  private MockCluster.Picker picker;

  @BeforeEach
  void setUp() {
    cluster = new MockCluster();
    picker = cluster.picker();
    cluster.admin.resource(pool("h100", Map.of("gpu", "h100"), 8000)).create();
    cluster.admin.resource(pool("a10", Map.of("gpu", "a10"), 8000)).create();
    Await.until("ready", picker.source::ready);
  }

  @AfterEach
  void tearDown() {
    cluster.close();
  }

  private static ModelRouteSpec llama(int h100, int a10) {
    return new ModelRouteSpec(
        "llama-3.1-8b",
        List.of("llama"),
        List.of("sql-lora"),
        List.of(new PoolRef("h100", h100), new PoolRef("a10", a10)),
        "Critical",
        true);
  }

  @Test
  void routesResolveNamesAliasesAdaptersAndWeights() {
    cluster.admin.resource(route("llama", llama(90, 10))).create();
    Await.until("resolves", () -> resolves("llama"));
    Resolution alias = picker.resolver.get().resolve("llama");
    assertThat(alias.canonicalModel()).isEqualTo("llama-3.1-8b");
    assertThat(alias.pools())
        .containsExactly(new PoolTarget("h100", 90), new PoolTarget("a10", 10));
    Resolution adapter = picker.resolver.get().resolve("sql-lora");
    assertThat(adapter.adapter()).isEqualTo("sql-lora");
    assertThat(adapter.baseModel()).isEqualTo("llama-3.1-8b");
    assertThat(picker.resolver.get().resolve(null).canonicalModel()).isEqualTo("llama-3.1-8b");

    // drain the A10 pool: weight 0 leaves it out
    MockCluster.editRetrying(
        cluster.admin.resources(ModelRoute.class).inNamespace(MockCluster.NS).withName("llama"),
        r -> {
          r.setSpec(llama(100, 0));
          return r;
        });
    Await.until(
        "a10 drained",
        () ->
            picker
                .resolver
                .get()
                .resolve("llama")
                .pools()
                .equals(List.of(new PoolTarget("h100", 100))));

    cluster
        .admin
        .resources(ModelRoute.class)
        .inNamespace(MockCluster.NS)
        .withName("llama")
        .delete();
    Await.until("gone", () -> !resolves("llama-3.1-8b"));
    assertThatThrownBy(() -> picker.resolver.get().resolve("llama"))
        .isInstanceOf(RequestRejectedException.class);
  }

  @Test
  void aSheddableRoutesModelAliasesAndAdaptersMayBeShedTheOthersNot() {
    cluster.admin.resource(route("llama", llama(1, 1))).create();
    cluster
        .admin
        .resource(
            route(
                "batch",
                new ModelRouteSpec(
                    "batch-8b",
                    List.of("batch"),
                    List.of("batch-lora"),
                    List.of(new PoolRef("a10", 1)),
                    "Sheddable",
                    false)))
        .create();
    cluster
        .admin
        .resource(
            route(
                "standard",
                new ModelRouteSpec(
                    "std-8b",
                    List.of(),
                    List.of(),
                    List.of(new PoolRef("a10", 1)),
                    "Standard",
                    false)))
        .create();
    Await.until("resolves", () -> resolves("batch-lora") && resolves("std-8b"));

    for (String name : List.of("batch-8b", "batch", "batch-lora")) {
      assertThat(picker.resolver.get().resolve(name).sheddable()).as(name).isTrue();
    }
    for (String name : List.of("llama-3.1-8b", "llama", "sql-lora", "std-8b")) {
      assertThat(picker.resolver.get().resolve(name).sheddable()).as(name).isFalse();
    }
  }

  @Test
  void aConflictingRouteIsRejectedInStatusTheOlderKeepsServing() {
    cluster.admin.resource(route("llama", llama(1, 1))).create();
    Await.until("llama", () -> resolves("llama"));
    cluster
        .admin
        .resource(
            route(
                "zz-copycat",
                new ModelRouteSpec(
                    "other-model",
                    List.of("llama"),
                    null,
                    List.of(new PoolRef("a10", null)),
                    null,
                    null)))
        .create();
    Await.until(
        "copycat Invalid",
        () -> {
          ModelRoute r =
              cluster
                  .admin
                  .resources(ModelRoute.class)
                  .inNamespace(MockCluster.NS)
                  .withName("zz-copycat")
                  .get();
          var c = StatusWriter.accepted(r.getStatus());
          return c != null
              && c.getStatus().equals("False")
              && c.getMessage()
                  .equals(
                      "spec.aliases[0]: 'llama' (already served by ModelRoute 'llama', which is older)");
        });
    assertThat(picker.resolver.get().resolve("llama").canonicalModel()).isEqualTo("llama-3.1-8b");
    assertThat(resolves("other-model")).isFalse();
  }

  @Test
  void aPoolWithoutARouteServesTheModelsItsAnnotationNames() {
    InferencePool p = pool("mistral", Map.of("gpu", "l4"), 8000);
    p.getMetadata().setAnnotations(Map.of(InferencePool.MODELS_ANNOTATION, "mistral-7b, mixtral"));
    cluster.admin.resource(p).create();
    Await.until("annotated", () -> resolves("mixtral"));
    assertThat(picker.resolver.get().resolve("mistral-7b").pools())
        .containsExactly(PoolTarget.of("mistral"));
  }

  private boolean resolves(String model) {
    try {
      picker.resolver.get().resolve(model);
      return true;
    } catch (RequestRejectedException e) {
      return false;
    }
  }
}
