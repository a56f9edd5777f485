package dev.pointsman.cli.certs;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Creates a {@code kubernetes.io/tls} Secret only if it is absent, and never changes one that
 * exists: what keeps generated certificates stable across upgrades and re-renders without the chart
 * reading the cluster. Two concurrent runs are safe: the API server lets one create win (409
 * Conflict for the other, which then finds the Secret).
 */
final class SecretEnsurer {
  /** The keys every consumer mounts: the picker and Envoy the first two, Envoy the CA. */
  static final List<String> KEYS = List.of("tls.crt", "tls.key", "ca.crt");

  /** What {@link #ensure} did. */
  enum Outcome {
    CREATED,
    EXISTS
  }

  private final KubernetesClient client;

  SecretEnsurer(KubernetesClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  /**
   * Creates Secret {@code namespace/name} from {@code bundle} (called only when creating) unless it
   * exists. An existing Secret without the three keys is an error: it is left as it is.
   */
  Outcome ensure(
      String namespace, String name, Map<String, String> labels, Supplier<TlsBundle> bundle) {
    Secret existing = client.secrets().inNamespace(namespace).withName(name).get();
    if (existing != null) {
      requireKeys(namespace, name, existing);
      return Outcome.EXISTS;
    }
    TlsBundle b = bundle.get();
    var data = new LinkedHashMap<String, String>();
    data.put("tls.crt", b.certificatePem());
    data.put("tls.key", b.privateKeyPem());
    data.put("ca.crt", b.caPem());
    Secret secret =
        new SecretBuilder()
            .withNewMetadata()
            .withNamespace(namespace)
            .withName(name)
            .withLabels(labels)
            .endMetadata()
            .withType("kubernetes.io/tls")
            .withData(base64(data))
            .build();
    try {
      client.secrets().inNamespace(namespace).resource(secret).create();
      return Outcome.CREATED;
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_CONFLICT) {
        return Outcome.EXISTS;
      }
      throw e;
    }
  }

  private static void requireKeys(String namespace, String name, Secret secret) {
    Map<String, String> data = secret.getData() == null ? Map.of() : secret.getData();
    List<String> missing = KEYS.stream().filter(k -> !data.containsKey(k)).toList();
    if (!missing.isEmpty()) {
      throw new IllegalStateException(
          "secret "
              + namespace
              + "/"
              + name
              + " exists but lacks "
              + missing
              + " (expected "
              + KEYS
              + "); it was left as it is: delete it to have it generated again");
    }
  }

  private static Map<String, String> base64(Map<String, String> pem) {
    var out = new LinkedHashMap<String, String>();
    pem.forEach(
        (k, v) ->
            out.put(
                k,
                java.util.Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.UTF_8))));
    return out;
  }
}
