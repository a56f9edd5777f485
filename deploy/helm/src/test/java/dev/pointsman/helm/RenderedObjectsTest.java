package dev.pointsman.helm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.helm.Scenarios.Scenario;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every object of every scenario parses into fabric8's typed model and is well-formed. */
class RenderedObjectsTest {
  /** Third-party kinds that fabric8's core model does not carry. */
  private static final Set<String> THIRD_PARTY =
      Set.of(
          "cert-manager.io/v1/Certificate",
          "cert-manager.io/v1/Issuer",
          "monitoring.coreos.com/v1/ServiceMonitor",
          "monitoring.coreos.com/v1/PodMonitor",
          "monitoring.coreos.com/v1/PrometheusRule");

  static Stream<Scenario> scenarios() {
    return Scenarios.all().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void everyObjectIsTypedNamespacedAndLabelled(Scenario scenario) {
    Rendered rendered = scenario.render();

    assertThat(rendered.objects()).isNotEmpty();
    Set<String> seen = new HashSet<>();
    for (HasMetadata o : rendered.objects()) {
      String id = o.getApiVersion() + "/" + o.getKind();
      if (o instanceof GenericKubernetesResource) {
        assertThat(THIRD_PARTY).as("%s parsed untyped", id).contains(id);
      } else {
        assertThat(o.getClass().getPackageName()).startsWith("io.fabric8.kubernetes.api.model");
      }
      assertThat(o.getMetadata().getNamespace()).as(id).isEqualTo(Chart.NAMESPACE);
      assertThat(o.getMetadata().getName()).as(id).matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
      assertThat(o.getMetadata().getName().length()).as(id).isLessThanOrEqualTo(63);
      assertThat(o.getMetadata().getLabels())
          .as(id)
          .containsEntry("app.kubernetes.io/instance", Chart.RELEASE)
          .containsEntry("app.kubernetes.io/managed-by", "Helm")
          .containsKey("helm.sh/chart");
      assertThat(seen.add(id + "/" + o.getMetadata().getName())).as("duplicate " + id).isTrue();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void thePickerAndItsServicesAreAlwaysThere(Scenario scenario) {
    List<String> kinds =
        scenario.render().objects().stream()
            .map(o -> o.getKind() + "/" + o.getMetadata().getName())
            .toList();

    assertThat(kinds)
        .contains(
            "Deployment/pointsman-picker",
            "Service/pointsman-picker",
            "Service/pointsman-picker-headless",
            "ConfigMap/pointsman-picker",
            "PodDisruptionBudget/pointsman-picker",
            "NetworkPolicy/pointsman-picker");
  }
}
