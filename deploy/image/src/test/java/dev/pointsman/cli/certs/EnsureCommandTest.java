package dev.pointsman.cli.certs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.cli.Main;
import dev.pointsman.runtime.Pem;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code pointsman certs ensure} against a CRUD mock API server. */
class EnsureCommandTest {
  private static final String NS = "inference";

  private KubernetesMockServer server;
  private KubernetesClient client;

  @BeforeEach
  void start() {
    server =
        new KubernetesMockServer(
            new Context(),
            new MockWebServer(),
            new HashMap<>(),
            new KubernetesCrudDispatcher(),
            false);
    server.init();
    client = server.createClient();
  }

  @AfterEach
  void stop() {
    client.close();
    server.destroy();
  }

  private int run(String... args) {
    CommandLine cli = Main.commandLine();
    CommandLine ensure = cli.getSubcommands().get("certs").getSubcommands().get("ensure");
    // The command closes its client: give it its own, on the same mock server.
    ((EnsureCommand) ensure.getCommand()).clients = server::createClient;
    cli.setErr(new PrintWriter(new StringWriter()));
    return cli.execute(args);
  }

  private Secret secret(String name) {
    return client.secrets().inNamespace(NS).withName(name).get();
  }

  private static String decoded(Secret s, String key) {
    return new String(Base64.getDecoder().decode(s.getData().get(key)), StandardCharsets.UTF_8);
  }

  @Test
  void createsTheSecretWhenAbsent() throws Exception {
    int code =
        run(
            "certs",
            "ensure",
            "--secret",
            "pointsman-picker-tls",
            "--namespace",
            NS,
            "--dns",
            "pointsman-picker.inference.svc",
            "--dns",
            "pointsman-picker.inference.svc.cluster.local",
            "--ca-name",
            "pointsman picker CA",
            "--days",
            "30",
            "--label",
            "app.kubernetes.io/component=picker");

    assertThat(code).isZero();
    Secret s = secret("pointsman-picker-tls");
    assertThat(s.getType()).isEqualTo("kubernetes.io/tls");
    assertThat(s.getData()).containsOnlyKeys("tls.crt", "tls.key", "ca.crt");
    assertThat(s.getMetadata().getLabels()).containsEntry("app.kubernetes.io/component", "picker");
    X509Certificate ca = Pem.readCertificates(decoded(s, "ca.crt")).getFirst();
    X509Certificate cert = Pem.readCertificates(decoded(s, "tls.crt")).getFirst();
    cert.verify(ca.getPublicKey()); // signed by the CA in the same Secret
    ca.verify(ca.getPublicKey());
    assertThat(ca.getBasicConstraints()).isGreaterThanOrEqualTo(0);
    assertThat(cert.getBasicConstraints()).isEqualTo(-1);
    assertThat(cert.getSubjectAlternativeNames())
        .extracting(san -> String.valueOf(san.get(1)))
        .containsExactly(
            "pointsman-picker.inference.svc", "pointsman-picker.inference.svc.cluster.local");
    assertThat(Pem.readPrivateKey(decoded(s, "tls.key")).getAlgorithm()).isEqualTo("EC");
  }

  @Test
  void leavesAnExistingSecretUntouched() {
    String[] args = {
      "certs", "ensure", "--secret", "gw-tls", "--namespace", NS, "--dns", "llm.example.com"
    };
    assertThat(run(args)).isZero();
    Secret first = secret("gw-tls");

    assertThat(run(args)).isZero();

    Secret second = secret("gw-tls");
    assertThat(second.getData()).isEqualTo(first.getData());
    assertThat(second.getMetadata().getResourceVersion())
        .isEqualTo(first.getMetadata().getResourceVersion());
  }

  @Test
  void aSecretMadeBySomeoneElseIsKept() {
    client
        .secrets()
        .inNamespace(NS)
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("gw-tls")
                .withNamespace(NS)
                .endMetadata()
                .withType("kubernetes.io/tls")
                .withData(Map.of("tls.crt", "Y3J0", "tls.key", "a2V5", "ca.crt", "Y2E="))
                .build())
        .create();

    assertThat(run("certs", "ensure", "--secret", "gw-tls", "--namespace", NS, "--dns", "x.y"))
        .isZero();

    assertThat(secret("gw-tls").getData())
        .isEqualTo(Map.of("tls.crt", "Y3J0", "tls.key", "a2V5", "ca.crt", "Y2E="));
  }

  @Test
  void anExistingSecretWithoutTheKeysFailsAndIsKept() {
    client
        .secrets()
        .inNamespace(NS)
        .resource(
            new SecretBuilder()
                .withNewMetadata()
                .withName("gw-tls")
                .withNamespace(NS)
                .endMetadata()
                .withData(Map.of("password", "cHc="))
                .build())
        .create();

    assertThat(run("certs", "ensure", "--secret", "gw-tls", "--namespace", NS, "--dns", "x.y"))
        .isNotZero();

    assertThat(secret("gw-tls").getData()).isEqualTo(Map.of("password", "cHc="));
  }

  @Test
  void generatedBundlesDiffer() {
    var clock = java.time.InstantSource.system();
    var a = TlsBundle.generate("ca", List.of("a.b"), 1, clock);
    var b = TlsBundle.generate("ca", List.of("a.b"), 1, clock);

    assertThat(a.caPem()).isNotEqualTo(b.caPem());
  }
}
