package dev.pointsman.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.helm.Scenarios.Scenario;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The picker's RBAC: exactly what `picker --kubernetes` needs, namespaced, no wildcards. */
class RbacTest {
  private static final String PICKER = "pointsman-picker";
  private static final Path RBAC_NEXT_TO_THE_CODE =
      Chart.REPO.resolve("deploy/rbac/picker-rbac.yaml");

  /** group/resource:verb, one per permission. */
  private static final Set<String> EXPECTED =
      Set.of(
          "/pods:get",
          "/pods:list",
          "/pods:watch",
          "inference.networking.k8s.io/inferencepools:get",
          "inference.networking.k8s.io/inferencepools:list",
          "inference.networking.k8s.io/inferencepools:watch",
          "pointsman.dev/modelroutes:get",
          "pointsman.dev/modelroutes:list",
          "pointsman.dev/modelroutes:watch",
          "pointsman.dev/pickerpolicies:get",
          "pointsman.dev/pickerpolicies:list",
          "pointsman.dev/pickerpolicies:watch",
          "pointsman.dev/tenantbudgets:get",
          "pointsman.dev/tenantbudgets:list",
          "pointsman.dev/tenantbudgets:watch",
          "pointsman.dev/modelroutes/status:get",
          "pointsman.dev/modelroutes/status:update",
          "pointsman.dev/modelroutes/status:patch",
          "pointsman.dev/pickerpolicies/status:get",
          "pointsman.dev/pickerpolicies/status:update",
          "pointsman.dev/pickerpolicies/status:patch",
          "pointsman.dev/tenantbudgets/status:get",
          "pointsman.dev/tenantbudgets/status:update",
          "pointsman.dev/tenantbudgets/status:patch",
          "coordination.k8s.io/leases:create",
          "coordination.k8s.io/leases[pointsman-picker-status]:get",
          "coordination.k8s.io/leases[pointsman-picker-status]:update",
          "coordination.k8s.io/leases[pointsman-picker-status]:patch");

  static Stream<Scenario> kubernetesMode() {
    return Scenarios.all().stream().filter(s -> s != Scenarios.LOCAL_CONFIG);
  }

  static Set<String> permissions(List<PolicyRule> rules) {
    Set<String> out = new TreeSet<>();
    for (PolicyRule rule : rules) {
      assertThat(rule.getNonResourceURLs()).isNullOrEmpty();
      for (String group : rule.getApiGroups()) {
        for (String resource : rule.getResources()) {
          for (String verb : rule.getVerbs()) {
            List<String> names = rule.getResourceNames();
            out.add(
                group
                    + "/"
                    + resource
                    + (names == null || names.isEmpty() ? "" : names.toString().replace(" ", ""))
                    + ":"
                    + verb);
          }
        }
      }
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kubernetesMode")
  void theRoleGrantsExactlyWhatThePickerUses(Scenario scenario) {
    Rendered r = scenario.render();
    Role role = r.get(Role.class, PICKER);

    assertThat(permissions(role.getRules())).containsExactlyInAnyOrderElementsOf(EXPECTED);
    assertThat(r.manifest()).doesNotContain("ClusterRole");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kubernetesMode")
  void noWildcardsAndNoSecrets(Scenario scenario) {
    Role role = scenario.render().get(Role.class, PICKER);

    for (PolicyRule rule : role.getRules()) {
      assertThat(rule.getApiGroups()).doesNotContain("*");
      assertThat(rule.getResources()).doesNotContain("*").doesNotContain("secrets");
      assertThat(rule.getVerbs())
          .doesNotContain("*", "delete", "deletecollection", "escalate", "bind", "impersonate");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("kubernetesMode")
  void theBindingGivesTheRoleToThePickersServiceAccountOnly(Scenario scenario) {
    Rendered r = scenario.render();
    RoleBinding binding = r.get(RoleBinding.class, PICKER);

    assertGivesRoleToAccountOnly(binding, PICKER, PICKER);
  }

  /** {@code binding} gives Role {@code role} to the release's ServiceAccount {@code account}. */
  static void assertGivesRoleToAccountOnly(RoleBinding binding, String role, String account) {
    assertThat(binding.getRoleRef().getKind()).isEqualTo("Role");
    assertThat(binding.getRoleRef().getName()).isEqualTo(role);
    assertThat(binding.getSubjects())
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.getKind()).isEqualTo("ServiceAccount");
              assertThat(s.getName()).isEqualTo(account);
              assertThat(s.getNamespace()).isEqualTo(Chart.NAMESPACE);
            });
  }

  @Test
  void anExistingServiceAccountMustBeNamedNotTheNamespacesDefault() {
    assertThatThrownBy(() -> Chart.render("serviceAccount: {create: false}"))
        .hasMessageContaining("serviceAccount.create=false needs serviceAccount.name");

    Rendered named = Chart.render("serviceAccount: {create: false, name: picker-irsa}");
    assertThat(named.get(RoleBinding.class, PICKER).getSubjects())
        .singleElement()
        .satisfies(s -> assertThat(s.getName()).isEqualTo("picker-irsa"));
    assertThat(named.all(io.fabric8.kubernetes.api.model.ServiceAccount.class))
        .extracting(sa -> sa.getMetadata().getName())
        .doesNotContain("picker-irsa", "default");
    assertThat(
            named
                .get(io.fabric8.kubernetes.api.model.apps.Deployment.class, PICKER)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getServiceAccountName())
        .isEqualTo("picker-irsa");
  }

  @Test
  void configModeNeedsNoRbac() {
    Rendered r = Scenarios.LOCAL_CONFIG.render();

    assertThat(r.find(Role.class, PICKER)).isEmpty();
    assertThat(r.find(RoleBinding.class, PICKER)).isEmpty();
  }

  @Test
  void sameRulesAsTheRbacWrittenNextToTheCode() throws Exception {
    Assumptions.assumeTrue(
        Files.exists(RBAC_NEXT_TO_THE_CODE),
        "deploy/rbac/picker-rbac.yaml is missing; nothing to compare");
    Set<String> theirs = new TreeSet<>();
    for (String doc : Chart.read(RBAC_NEXT_TO_THE_CODE).split("(?m)^---\\s*$")) {
      if (doc.isBlank() || doc.lines().allMatch(l -> l.isBlank() || l.strip().startsWith("#"))) {
        continue;
      }
      HasMetadata o = new KubernetesSerialization().unmarshal(doc);
      if (o instanceof Role role) {
        theirs.addAll(permissions(role.getRules()));
      }
    }

    assertThat(theirs).isNotEmpty();
    assertThat(new TreeSet<>(EXPECTED)).isEqualTo(theirs);
  }
}
