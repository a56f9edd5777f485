package dev.pointsman.cli.certs;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code pointsman certs ensure}: creates a TLS Secret (a new private CA and a certificate it
 * signed) only if the Secret is absent; an existing Secret is never changed. Needs {@code get} on
 * that Secret and {@code create} on Secrets in its namespace.
 */
@Command(
    name = "ensure",
    mixinStandardHelpOptions = true,
    description =
        "Create a kubernetes.io/tls Secret (tls.crt, tls.key, ca.crt from a new private CA) if it"
            + " is absent; leave an existing one untouched.",
    footerHeading = "%nExample:%n",
    footer = {
      "  ./pointsman certs ensure --secret pointsman-picker-tls --namespace pointsman \\",
      "      --dns pointsman-picker.pointsman.svc --ca-name 'pointsman picker CA'"
    })
public final class EnsureCommand implements Callable<Integer> {

  @Option(names = "--secret", required = true, description = "The Secret's name.")
  String secret;

  @Option(
      names = "--namespace",
      description = "The Secret's namespace (default: $POD_NAMESPACE, else the client's).")
  String namespace;

  @Option(
      names = "--dns",
      required = true,
      description = "A DNS name of the certificate (repeat; the first is its CN).")
  List<String> dnsNames;

  @Option(names = "--ca-name", defaultValue = "pointsman CA", description = "The CA's CN.")
  String caName;

  @Option(names = "--days", defaultValue = "730", description = "Validity of both certificates.")
  int days;

  @Option(names = "--label", description = "A label of the created Secret (key=value; repeat).")
  Map<String, String> labels = new LinkedHashMap<>();

  /** The client to use; tests set it (the mock API server), otherwise the in-cluster config. */
  Supplier<KubernetesClient> clients = () -> new KubernetesClientBuilder().build();

  @Override
  public Integer call() {
    try (KubernetesClient client = clients.get()) {
      String ns = namespace();
      if (ns == null || ns.isBlank()) {
        ns = client.getNamespace();
      }
      if (ns == null || ns.isBlank()) {
        throw new IllegalArgumentException(
            "--namespace: not set (expected a namespace, or $POD_NAMESPACE)");
      }
      var outcome =
          new SecretEnsurer(client)
              .ensure(
                  ns,
                  secret,
                  labels,
                  () -> TlsBundle.generate(caName, dnsNames, days, InstantSource.system()));
      System.out.println(
          "secret "
              + ns
              + "/"
              + secret
              + ": "
              + (outcome == SecretEnsurer.Outcome.CREATED
                  ? "created (new CA, certificate for " + dnsNames + ")"
                  : "exists, left untouched"));
      return 0;
    }
  }

  private String namespace() {
    return namespace != null ? namespace : System.getenv("POD_NAMESPACE");
  }
}
