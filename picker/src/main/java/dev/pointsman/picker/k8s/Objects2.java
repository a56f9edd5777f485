package dev.pointsman.picker.k8s;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Comparator;

/** Small helpers over Kubernetes object metadata. */
final class Objects2 {
  /** Oldest first, then by name: the order in which conflicting objects win. */
  static final Comparator<HasMetadata> OLDEST_FIRST =
      Comparator.comparing((HasMetadata o) -> nullToEmpty(o.getMetadata().getCreationTimestamp()))
          .thenComparing(o -> o.getMetadata().getName());

  private Objects2() {}

  static long generation(HasMetadata o) {
    Long g = o.getMetadata().getGeneration();
    return g == null ? 0 : g;
  }

  static String name(HasMetadata o) {
    return o.getMetadata().getName();
  }

  static String uid(HasMetadata o) {
    String uid = o.getMetadata().getUid();
    return uid == null ? o.getMetadata().getName() : uid;
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }
}
