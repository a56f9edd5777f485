package dev.pointsman.picker.k8s;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatus;
import java.util.Map;

/** Which pods serve, and their endpoint addresses. Pure functions. */
final class PodEndpoints {
  private PodEndpoints() {}

  /**
   * A pod serves when it is not terminating (no deletion timestamp), has an IP, has not finished,
   * and its {@code Ready} condition is {@code True}.
   */
  static boolean serving(Pod pod) {
    if (pod.getMetadata().getDeletionTimestamp() != null) {
      return false;
    }
    PodStatus status = pod.getStatus();
    if (status == null || status.getPodIP() == null || status.getPodIP().isBlank()) {
      return false;
    }
    if ("Succeeded".equals(status.getPhase()) || "Failed".equals(status.getPhase())) {
      return false;
    }
    if (status.getConditions() == null) {
      return false;
    }
    for (PodCondition c : status.getConditions()) {
      if ("Ready".equals(c.getType())) {
        return "True".equals(c.getStatus());
      }
    }
    return false;
  }

  /**
   * Whether every selector entry is among the pod's labels. An empty or absent selector selects
   * nothing: a pool must say which pods it wants.
   */
  static boolean selects(Map<String, String> selector, Map<String, String> labels) {
    if (selector == null || selector.isEmpty() || labels == null) {
      return false;
    }
    for (Map.Entry<String, String> e : selector.entrySet()) {
      if (!e.getValue().equals(labels.get(e.getKey()))) {
        return false;
      }
    }
    return true;
  }

  /** {@code ip:port}, with an IPv6 address in brackets as Envoy expects. */
  static String address(String ip, int port) {
    return ip.indexOf(':') >= 0 ? "[" + ip + "]:" + port : ip + ":" + port;
  }
}
