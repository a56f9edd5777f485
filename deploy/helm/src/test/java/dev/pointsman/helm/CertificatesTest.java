package dev.pointsman.helm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.helm.Scenarios.Scenario;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Generated certificates do not depend on rendering: no Secret is rendered, a Job creates each one
 * only if it is absent (`pointsman certs ensure`, tested in deploy/image), and two renders of the
 * same values are the same bytes, so an EKS add-on update, an Argo CD sync or `helm template |
 * kubectl apply` changes nothing.
 */
class CertificatesTest {
  private static final String CERTS = "pointsman-certs";

  static Stream<Scenario> scenarios() {
    return Scenarios.all().stream();
  }

  private static Job job(Rendered r) {
    List<Job> jobs = r.all(Job.class);
    assertThat(jobs).hasSize(1);
    return jobs.getFirst();
  }

  private static Container container(Job job, String name) {
    return job.getSpec().getTemplate().getSpec().getContainers().stream()
        .filter(c -> c.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no container " + name));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void twoRendersOfTheSameValuesAreByteForByteEqual(Scenario scenario) {
    String first = Chart.template(Chart.RELEASE, Chart.NAMESPACE, scenario.values());
    String second = Chart.template(Chart.RELEASE, Chart.NAMESPACE, scenario.values());

    assertThat(second).isEqualTo(first);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("scenarios")
  void noSecretIsEverRendered(Scenario scenario) {
    assertThat(scenario.render().all(Secret.class)).isEmpty();
  }

  @Test
  void theJobCreatesBothSecretsWithTheNamesTheWorkloadsMount() {
    Rendered r = Chart.defaults();
    Job job = job(r);

    List<String> picker = container(job, "picker").getArgs();
    List<String> gateway = container(job, "gateway").getArgs();

    assertThat(picker)
        .startsWith(
            "certs", "ensure", "--secret", "pointsman-picker-tls", "--namespace", "pointsman")
        .containsSequence("--dns", "pointsman-picker.pointsman.svc")
        .containsSequence("--dns", "pointsman-picker-headless.pointsman.svc.cluster.local")
        .containsSequence("--days", "730");
    assertThat(gateway)
        .startsWith("certs", "ensure", "--secret", "pointsman-gateway-tls")
        .containsSequence("--dns", "pointsman-envoy.pointsman.svc");
    var mounted =
        Stream.of("pointsman-picker", "pointsman-envoy")
            .flatMap(
                d ->
                    r
                        .get(Deployment.class, d)
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getVolumes()
                        .stream())
            .filter(v -> v.getSecret() != null)
            .map(v -> v.getSecret().getSecretName())
            .distinct()
            .toList();
    assertThat(mounted).containsExactlyInAnyOrder("pointsman-picker-tls", "pointsman-gateway-tls");
    assertThat(container(job, "picker").getImage())
        .isEqualTo(
            r.get(Deployment.class, "pointsman-picker")
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .getFirst()
                .getImage());
  }

  @Test
  void theJobIsAPlainJobWithItsOwnNarrowAccount() {
    Rendered r = Chart.defaults();
    Job job = job(r);
    var pod = job.getSpec().getTemplate().getSpec();

    assertThat(job.getMetadata().getAnnotations()).isNullOrEmpty(); // no helm.sh/hook
    assertThat(job.getMetadata().getName()).matches(CERTS + "-[0-9a-f]{8}");
    assertThat(pod.getServiceAccountName()).isEqualTo(CERTS);
    assertThat(pod.getRestartPolicy()).isEqualTo("OnFailure");
    Security.assertRestricted(pod);
    assertThat(r.get(ServiceAccount.class, CERTS)).isNotNull();
    Role role = r.get(Role.class, CERTS);
    assertThat(RbacTest.permissions(role.getRules()))
        .containsExactlyInAnyOrder(
            "/secrets:create", "/secrets[pointsman-picker-tls,pointsman-gateway-tls]:get");
    assertThat(r.get(RoleBinding.class, CERTS).getSubjects())
        .singleElement()
        .satisfies(s -> assertThat(s.getName()).isEqualTo(CERTS));
  }

  @Test
  void theJobRunsThePinnedImageToo() {
    String digest = "sha256:" + "cd".repeat(32);

    assertThat(
            container(job(Chart.render("image: {digest: \"" + digest + "\"}")), "picker")
                .getImage())
        .isEqualTo("ghcr.io/pointsman/pointsman@" + digest);
  }

  @Test
  void aNewImageIsANewJobAndTheSameValuesTheSameJob() {
    String name = job(Chart.defaults()).getMetadata().getName();

    assertThat(job(Chart.render("image: {tag: 9.9.9}")).getMetadata().getName()).isNotEqualTo(name);
    assertThat(job(Chart.render("envoy: {replicas: 3}")).getMetadata().getName()).isEqualTo(name);
  }

  @Test
  void onlyGeneratedSecretsAreEnsured() {
    Rendered envoyOff = Chart.render("envoy: {enabled: false}");
    assertThat(job(envoyOff).getSpec().getTemplate().getSpec().getContainers())
        .extracting(Container::getName)
        .containsExactly("picker");
    assertThat(RbacTest.permissions(envoyOff.get(Role.class, CERTS).getRules()))
        .contains("/secrets[pointsman-picker-tls]:get");

    for (Scenario s : List.of(Scenarios.CERT_MANAGER, Scenarios.EVERYTHING_ON)) {
      Rendered r = s.render();
      assertThat(r.all(Job.class)).as(s.name()).isEmpty();
      assertThat(r.find(ServiceAccount.class, CERTS)).as(s.name()).isEmpty();
      assertThat(r.find(Role.class, CERTS)).as(s.name()).isEmpty();
    }
  }
}
