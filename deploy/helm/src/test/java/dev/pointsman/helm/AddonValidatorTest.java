package dev.pointsman.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The static checks of AWS's EKS add-on pre-launch validator (aws-samples/
 * addons-transformer-for-amazon-eks, src/services/validate.ts: error codes E501–E507), run as the
 * validator runs them: greps over every file of the chart, plus lint and template per Kubernetes
 * version. Where the validator's grep is loose (its `.Release.[Name|Namespace]` is a character
 * class), these are at least as strict.
 */
class AddonValidatorTest {
  /**
   * The Kubernetes versions the chart supports (Chart.yaml kubeVersion >= 1.30) and is tried on.
   */
  private static final List<String> KUBE_VERSIONS = List.of("1.30.0", "1.33.0", "1.35.0");

  private static final Pattern RELEASE = Pattern.compile("\\.Release\\.(\\w+)");
  private static final Pattern LOOKUP_CALL = Pattern.compile("(?i)\\(\\s*lookup");
  private static final Pattern LOOKUP_WORD = Pattern.compile("\\blookup\\b");
  private static final Pattern HOOK = Pattern.compile("(?i)helm\\.sh/hook");

  private static List<Path> chartFiles() {
    try (Stream<Path> files = Files.walk(Chart.DIR)) {
      return files.filter(Files::isRegularFile).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Path> templates() {
    return chartFiles().stream().filter(p -> p.startsWith(Chart.DIR.resolve("templates"))).toList();
  }

  /** file:line: text, for every line of {@code files} where {@code pattern} matches. */
  private static List<String> grep(List<Path> files, Pattern pattern) {
    List<String> hits = new ArrayList<>();
    for (Path file : files) {
      List<String> lines = Chart.read(file).lines().toList();
      for (int i = 0; i < lines.size(); i++) {
        if (pattern.matcher(lines.get(i)).find()) {
          hits.add(file + ":" + (i + 1) + ": " + lines.get(i).strip());
        }
      }
    }
    return hits;
  }

  @Test
  void e507NoLookupAnywhere() {
    assertThat(grep(chartFiles(), LOOKUP_CALL)).isEmpty();
    assertThat(grep(templates(), LOOKUP_WORD))
        .as("lookup in templates, even in comments")
        .isEmpty();
  }

  @Test
  void e504NoReleaseObjectButNameAndNamespace() {
    List<String> others = new ArrayList<>();
    for (Path file : chartFiles()) {
      Matcher m = RELEASE.matcher(Chart.read(file));
      while (m.find()) {
        if (!m.group(1).equals("Name") && !m.group(1).equals("Namespace")) {
          others.add(file + ": " + m.group());
        }
      }
    }

    assertThat(others).isEmpty();
    assertThat(grep(templates(), RELEASE)).as("the check sees the templates").isNotEmpty();
  }

  @Test
  void e502NoHooks() {
    assertThat(grep(chartFiles(), HOOK)).isEmpty();
  }

  @Test
  void e503NoDependenciesOutsideTheChart() {
    assertThat(Chart.read(Chart.DIR.resolve("Chart.yaml"))).doesNotContain("dependencies:");
    assertThat(Chart.DIR.resolve("charts")).doesNotExist();
  }

  @Test
  void e505LintStrictPasses() {
    var lint = Chart.lint();

    assertThat(lint.isFailed()).as("%s", lint.getMessages()).isFalse();
  }

  @ParameterizedTest(name = "Kubernetes {0}")
  @ValueSource(strings = {"1.30.0", "1.33.0", "1.35.0"})
  void e506AndE501TemplateRendersOnEveryVersionWithoutCapabilities(String kubeVersion) {
    var helm = new Helm(Chart.DIR);
    String withCrds =
        helm.template()
            .withName("pointsman")
            .withNamespace("pointsman")
            .withKubeVersion(kubeVersion)
            .call();
    String withoutCrds =
        helm.template()
            .withName("pointsman")
            .withNamespace("pointsman")
            .withKubeVersion(kubeVersion)
            .skipCrds()
            .call();

    assertThat(withCrds).doesNotContain(".Capabilities");
    assertThat(withoutCrds).doesNotContain(".Capabilities");
    assertThat(KUBE_VERSIONS).contains(kubeVersion);
  }

  @Test
  void e501NoCapabilitiesInTemplates() {
    assertThat(grep(templates(), Pattern.compile("\\.Capabilities"))).isEmpty();
  }
}
