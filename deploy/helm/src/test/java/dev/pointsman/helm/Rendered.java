package dev.pointsman.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A rendered manifest: every document parsed by fabric8 into its typed model class (kinds fabric8
 * does not know, such as cert-manager's, become GenericKubernetesResource).
 */
record Rendered(String manifest, List<HasMetadata> objects) {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static final Pattern SEPARATOR = Pattern.compile("(?m)^---\\s*$");

  Rendered {
    objects = List.copyOf(objects);
  }

  static Rendered parse(String manifest) {
    List<HasMetadata> objects = new ArrayList<>();
    for (String doc : SEPARATOR.split(manifest)) {
      if (doc.lines().allMatch(line -> line.isBlank() || line.stripLeading().startsWith("#"))) {
        continue;
      }
      Object parsed = SERIALIZATION.unmarshal(doc);
      assertThat(parsed).as("rendered document\n%s", doc).isInstanceOf(HasMetadata.class);
      objects.add((HasMetadata) parsed);
    }
    return new Rendered(manifest, objects);
  }

  <T extends HasMetadata> List<T> all(Class<T> type) {
    return objects.stream().filter(type::isInstance).map(type::cast).toList();
  }

  <T extends HasMetadata> Optional<T> find(Class<T> type, String name) {
    return all(type).stream().filter(o -> o.getMetadata().getName().equals(name)).findFirst();
  }

  <T extends HasMetadata> T get(Class<T> type, String name) {
    return find(type, name)
        .orElseThrow(
            () ->
                new AssertionError(
                    "no "
                        + type.getSimpleName()
                        + " named "
                        + name
                        + "; rendered: "
                        + objects.stream()
                            .map(o -> o.getKind() + "/" + o.getMetadata().getName())
                            .toList()));
  }

  List<HasMetadata> ofKind(String apiVersion, String kind) {
    return objects.stream()
        .filter(o -> o.getApiVersion().equals(apiVersion) && o.getKind().equals(kind))
        .toList();
  }
}
