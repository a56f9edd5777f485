package dev.pointsman.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.Release;
import dev.pointsman.cli.Main;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * An upgrade from chart 0.1.0, whose template rendered the generated certificate Secrets itself
 * (kept across upgrades through {@code lookup}), to this chart, where a Job ({@code pointsman certs
 * ensure}) creates them only if absent. Real Helm (helm-java) installs and upgrades against the
 * CRUD mock API server ({@link HelmApiServer}); the certificate Job, which no controller runs here,
 * is run in-process with the arguments of the Job object Helm created. The old chart is the fixture
 * {@code charts/pointsman-0.1.0-lookup.tgz} (see the README next to it).
 */
class ChartUpgradeTest {
  private static final Path OLD_CHART =
      Path.of("src/test/resources/charts/pointsman-0.1.0-lookup.tgz");
  private static final String RELEASE = "pointsman";
  private static final String NS = "inference";
  private static final List<String> CERTS =
      List.of("pointsman-picker-tls", "pointsman-gateway-tls");
  private static final String KEEP = "helm.sh/resource-policy";

  private HelmApiServer api;
  private KubernetesClient client;

  @BeforeEach
  void start() {
    api = new HelmApiServer();
    client = api.client();
  }

  @AfterEach
  void stop() {
    client.close();
    api.close();
  }

  private Release install(Path chart) {
    // skipCrds: Helm waits for installed CRDs to become Established, which the mock never reports.
    return new Helm(chart)
        .install()
        .withName(RELEASE)
        .withNamespace(NS)
        .withKubeConfig(api.kubeConfig())
        .disableOpenApiValidation()
        .skipCrds()
        .call();
  }

  private Release upgrade(Path chart) {
    return new Helm(chart)
        .upgrade()
        .withName(RELEASE)
        .withNamespace(NS)
        .withKubeConfig(api.kubeConfig())
        .disableOpenApiValidation()
        .call();
  }

  /** The certificate Secrets present, by name. */
  private Map<String, Secret> certSecrets() {
    var found = new LinkedHashMap<String, Secret>();
    for (String name : CERTS) {
      Secret s = client.secrets().inNamespace(NS).withName(name).get();
      if (s != null) {
        found.put(name, s);
      }
    }
    return found;
  }

  /** What docs/install.md asks before upgrading from 0.1.0 (kubectl annotate secret ...). */
  private void annotateKeep() {
    for (String name : CERTS) {
      client
          .secrets()
          .inNamespace(NS)
          .withName(name)
          .edit(
              s ->
                  new SecretBuilder(s)
                      .editMetadata()
                      .addToAnnotations(KEEP, "keep")
                      .endMetadata()
                      .build());
    }
  }

  /**
   * Runs each container of the certificate Job that Helm created, as its pod would: {@code
   * pointsman <args>}, the client configured from a kubeconfig (the mock) instead of the pod's
   * service account.
   */
  private void runCertificateJob() {
    List<Job> jobs = client.batch().v1().jobs().inNamespace(NS).list().getItems();
    assertThat(jobs).as("Jobs of the release").hasSize(1);
    List<Container> containers = jobs.getFirst().getSpec().getTemplate().getSpec().getContainers();
    assertThat(containers).extracting(Container::getName).containsExactly("picker", "gateway");
    String previous = System.getProperty("kubeconfig");
    System.setProperty("kubeconfig", api.kubeConfig().toString());
    try {
      for (Container c : containers) {
        var err = new StringWriter();
        CommandLine cli = Main.commandLine().setErr(new PrintWriter(err));
        int code = cli.execute(c.getArgs().toArray(String[]::new));
        assertThat(code).as("%s %s: %s", c.getName(), c.getArgs(), err).isZero();
      }
    } finally {
      if (previous == null) {
        System.clearProperty("kubeconfig");
      } else {
        System.setProperty("kubeconfig", previous);
      }
    }
  }

  private static X509Certificate certificate(Secret s, String key) {
    try {
      byte[] pem = Base64.getDecoder().decode(s.getData().get(key));
      return (X509Certificate)
          CertificateFactory.getInstance("X.509")
              .generateCertificate(new ByteArrayInputStream(pem));
    } catch (CertificateException e) {
      throw new AssertionError(s.getMetadata().getName() + "/" + key + " is no certificate", e);
    }
  }

  /** "METHOD status" of every write to this path. */
  private List<String> writesTo(String resourcePath) {
    return api.calls().stream()
        .filter(c -> c.writes() && c.resource().equals(resourcePath))
        .map(c -> c.method() + " " + c.status())
        .toList();
  }

  private static String secretPath(String name) {
    return "/api/v1/namespaces/" + NS + "/secrets/" + name;
  }

  private Map<String, Secret> installOldChart() {
    assertThat(install(OLD_CHART).getStatus()).isEqualTo("deployed");
    Map<String, Secret> old = certSecrets();
    assertThat(old).as("0.1.0 renders both Secrets itself").containsOnlyKeys(CERTS);
    for (Secret s : old.values()) {
      assertThat(s.getData()).containsOnlyKeys("tls.crt", "tls.key", "ca.crt");
      assertThat(s.getMetadata().getAnnotations())
          .containsEntry("meta.helm.sh/release-name", RELEASE);
      assertThat(certificate(s, "ca.crt").getPublicKey().getAlgorithm()).isEqualTo("RSA"); // Sprig
    }
    return old;
  }

  @Test
  void withoutTheKeepAnnotationTheUpgradeDeletesTheSecretsAndTheJobMakesNewCas() {
    // given 0.1.0 installed, its Secrets not annotated
    Map<String, Secret> old = installOldChart();
    api.clearCalls();

    // when
    Release upgraded = upgrade(Chart.DIR);

    // then Helm deleted both Secrets (they left the manifest) and created none
    assertThat(upgraded.getStatus()).isEqualTo("deployed");
    assertThat(upgraded.getRevision()).isEqualTo("2");
    for (String name : CERTS) {
      assertThat(writesTo(secretPath(name))).as(name).containsExactly("DELETE 200");
    }
    assertThat(certSecrets()).isEmpty();

    // and the new chart's Job, finding them absent, makes new CAs: the pods' old certificates
    // fail verification against them
    runCertificateJob();
    Map<String, Secret> remade = certSecrets();
    assertThat(remade).containsOnlyKeys(CERTS);
    for (String name : CERTS) {
      X509Certificate newCa = certificate(remade.get(name), "ca.crt");
      assertThat(newCa).isNotEqualTo(certificate(old.get(name), "ca.crt"));
      assertThat(newCa.getPublicKey().getAlgorithm()).isEqualTo("EC");
      X509Certificate oldCert = certificate(old.get(name), "tls.crt");
      assertThatThrownBy(() -> oldCert.verify(newCa.getPublicKey()))
          .as(name)
          .isInstanceOf(GeneralSecurityException.class);
    }
  }

  @Test
  void keptSecretsSurviveTheUpgradeAndTheJobLeavesThem() throws Exception {
    // given 0.1.0 installed and its Secrets annotated as docs/install.md says
    Map<String, Secret> old = installOldChart();
    annotateKeep();
    Map<String, Secret> annotated = certSecrets();
    api.clearCalls();

    // when
    Release upgraded = upgrade(Chart.DIR);

    // then Helm read them and wrote nothing to them
    assertThat(upgraded.getStatus()).isEqualTo("deployed");
    for (String name : CERTS) {
      assertThat(writesTo(secretPath(name))).as(name).isEmpty();
    }
    assertUnchanged(annotated, certSecrets());

    // and the Job finds them and leaves them: same CA, same picker and gateway certificates
    runCertificateJob();
    Map<String, Secret> after = certSecrets();
    assertUnchanged(annotated, after);
    for (String name : CERTS) {
      assertThat(after.get(name).getData()).isEqualTo(old.get(name).getData());
      certificate(after.get(name), "tls.crt")
          .verify(certificate(after.get(name), "ca.crt").getPublicKey());
    }
  }

  @Test
  void aSecondUpgradeWithTheSameValuesChangesNoObject() {
    // given 0.1.0, annotated, upgraded once, the Job run
    installOldChart();
    annotateKeep();
    upgrade(Chart.DIR);
    runCertificateJob();
    Map<String, Secret> certs = certSecrets();
    Map<String, String> before = withoutReleaseRecords(api.resourceVersions(NS));
    api.clearCalls();

    // when
    Release again = upgrade(Chart.DIR);

    // then Helm wrote a new release record and changed nothing else: no write reached a
    // certificate Secret, and every other object kept its resourceVersion. (Helm does send each
    // PodDisruptionBudget a patch restating its selector, a field patched by "replace"; it
    // changes nothing, and the API server, like this mock, stores nothing for it.)
    assertThat(again.getRevision()).isEqualTo("3");
    for (String name : CERTS) {
      assertThat(writesTo(secretPath(name))).as(name).isEmpty();
    }
    assertUnchanged(certs, certSecrets());
    assertThat(withoutReleaseRecords(api.resourceVersions(NS)))
        .as("objects after a second upgrade; requests: %s", api.calls())
        .isEqualTo(before);
    assertThat(api.resourceVersions(NS))
        .containsKey("Secret/sh.helm.release.v1." + RELEASE + ".v3");
  }

  private static Map<String, String> withoutReleaseRecords(Map<String, String> versions) {
    var objects = new LinkedHashMap<>(versions);
    objects.keySet().removeIf(k -> k.startsWith("Secret/sh.helm.release.v1."));
    return objects;
  }

  private static void assertUnchanged(Map<String, Secret> before, Map<String, Secret> after) {
    assertThat(after).containsOnlyKeys(before.keySet());
    before.forEach(
        (name, s) -> {
          Secret now = after.get(name);
          assertThat(now.getData()).as(name).isEqualTo(s.getData());
          assertThat(now.getMetadata().getResourceVersion())
              .as(name + " resourceVersion")
              .isEqualTo(s.getMetadata().getResourceVersion());
        });
  }
}
