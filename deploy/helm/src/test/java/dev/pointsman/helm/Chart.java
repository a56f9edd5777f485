package dev.pointsman.helm;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The chart under test, rendered by Helm itself (helm-java: Helm as a native library, no download,
 * no cluster). Renders are cached per (release, namespace, values) because each costs a native
 * call.
 */
final class Chart {
  /** Tests run in deploy/helm. */
  static final Path DIR = Path.of("pointsman");

  static final Path REPO = Path.of("..", "..");

  /** The release and namespace the shipped deploy/envoy/envoy.yaml is written for. */
  static final String RELEASE = "pointsman";

  static final String NAMESPACE = "pointsman";

  /** Any supported Kubernetes version (Chart.yaml's kubeVersion is >= 1.30). */
  static final String KUBE_VERSION = "1.33.0";

  private static final Helm HELM = new Helm(DIR);
  private static final ConcurrentHashMap<String, Rendered> CACHE = new ConcurrentHashMap<>();

  private Chart() {}

  /** The chart with its default values. */
  static Rendered defaults() {
    return render("");
  }

  /** The chart with these values (YAML) over the defaults, as release pointsman/pointsman. */
  static Rendered render(String valuesYaml) {
    return render(RELEASE, NAMESPACE, valuesYaml);
  }

  static Rendered render(String release, String namespace, String valuesYaml) {
    return CACHE.computeIfAbsent(
        release + "\u0000" + namespace + "\u0000" + valuesYaml,
        k -> Rendered.parse(template(release, namespace, valuesYaml)));
  }

  /**
   * The raw manifest text; throws IllegalStateException with Helm's message when rendering fails.
   */
  static String template(String release, String namespace, String valuesYaml) {
    var command =
        HELM.template().withName(release).withNamespace(namespace).withKubeVersion(KUBE_VERSION);
    if (!valuesYaml.isBlank()) {
      command = command.withValuesFile(valuesFile(valuesYaml));
    }
    return command.call();
  }

  /** NOTES.txt as `helm install` prints it (a client-only dry run: no cluster). */
  static String notes(String valuesYaml) {
    var command =
        HELM.install()
            .withName(RELEASE)
            .withNamespace(NAMESPACE)
            .withKubeVersion(KUBE_VERSION)
            .dryRun()
            .clientOnly();
    if (!valuesYaml.isBlank()) {
      command = command.withValuesFile(valuesFile(valuesYaml));
    }
    String output = command.call().getOutput();
    int at = output.indexOf("NOTES:");
    if (at < 0) {
      throw new AssertionError("no NOTES in helm install output:\n" + output);
    }
    return output.substring(at);
  }

  static LintResult lint() {
    return HELM.lint().strict().call();
  }

  /** What `helm show crds` prints: the chart's crds/ directory. */
  static String crds() {
    return HELM.show().crds().call();
  }

  static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path valuesFile(String yaml) {
    try {
      Path file = Files.createTempFile("pointsman-values-", ".yaml");
      file.toFile().deleteOnExit();
      return Files.writeString(file, yaml);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
