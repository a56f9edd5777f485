package dev.pointsman.helm;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;

/** The Kubernetes "restricted" Pod Security Standard, as both workloads must meet it. */
final class Security {
  private Security() {}

  static void assertRestricted(PodSpec pod) {
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(pod.getSecurityContext().getRunAsUser()).isPositive();
    assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    assertThat(pod.getHostNetwork()).isNotEqualTo(Boolean.TRUE);
    for (Container c : pod.getContainers()) {
      var sc = c.getSecurityContext();
      assertThat(sc.getAllowPrivilegeEscalation()).as(c.getName()).isFalse();
      assertThat(sc.getReadOnlyRootFilesystem()).as(c.getName()).isTrue();
      assertThat(sc.getRunAsNonRoot()).as(c.getName()).isTrue();
      assertThat(sc.getPrivileged()).as(c.getName()).isFalse();
      assertThat(sc.getCapabilities().getDrop()).as(c.getName()).containsExactly("ALL");
      assertThat(sc.getCapabilities().getAdd()).as(c.getName()).isNullOrEmpty();
      assertThat(sc.getSeccompProfile().getType()).as(c.getName()).isEqualTo("RuntimeDefault");
      assertThat(c.getPorts())
          .allSatisfy(p -> assertThat(p.getContainerPort()).isGreaterThan(1024));
    }
  }
}
