package dev.pointsman.picker.k8s;

import java.time.Duration;
import java.util.Objects;

/**
 * How the picker watches its namespace.
 *
 * @param namespace the namespace whose InferencePools, Pods, ModelRoutes and PickerPolicies are
 *     watched, and where the status Lease lives
 * @param boundPool the one InferencePool served (Endpoint Picker Protocol mode), or null for every
 *     pool of the namespace (one hop)
 * @param leaseName the Lease whose holder writes status
 * @param identity this replica's name in the Lease (the pod name)
 * @param leaseDuration how long a Lease holder is trusted without renewing
 * @param renewDeadline how long the holder keeps trying to renew before giving up leadership
 * @param retryPeriod how often candidates try to acquire, and the holder renews
 * @param resync how often informers replay their caches (0: never)
 */
public record KubernetesSettings(
    String namespace,
    String boundPool,
    String leaseName,
    String identity,
    Duration leaseDuration,
    Duration renewDeadline,
    Duration retryPeriod,
    Duration resync) {

  public static final String DEFAULT_LEASE = "pointsman-picker-status";

  public KubernetesSettings {
    require(namespace, "namespace");
    require(leaseName, "leaseName");
    require(identity, "identity");
    if (boundPool != null && boundPool.isBlank()) {
      throw new IllegalArgumentException("pool: '' (expected an InferencePool name, or none)");
    }
    Objects.requireNonNull(leaseDuration, "leaseDuration");
    Objects.requireNonNull(renewDeadline, "renewDeadline");
    Objects.requireNonNull(retryPeriod, "retryPeriod");
    Objects.requireNonNull(resync, "resync");
    if (renewDeadline.compareTo(leaseDuration) >= 0 || retryPeriod.compareTo(renewDeadline) >= 0) {
      throw new IllegalArgumentException(
          "lease timing: duration "
              + leaseDuration
              + ", renew deadline "
              + renewDeadline
              + ", retry "
              + retryPeriod
              + " (expected retry < renew deadline < duration)");
    }
  }

  /** Production timings: a 15 s lease renewed every 2 s, informers resynced every 10 minutes. */
  public static KubernetesSettings of(String namespace, String boundPool, String identity) {
    return new KubernetesSettings(
        namespace,
        boundPool,
        DEFAULT_LEASE,
        identity,
        Duration.ofSeconds(15),
        Duration.ofSeconds(10),
        Duration.ofSeconds(2),
        Duration.ofMinutes(10));
  }

  /** The same settings with other lease timings (tests use short ones). */
  public KubernetesSettings withLeaseTimings(Duration duration, Duration renew, Duration retry) {
    return new KubernetesSettings(
        namespace, boundPool, leaseName, identity, duration, renew, retry, resync);
  }

  private static void require(String value, String name) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + ": '" + value + "' (expected a non-empty name)");
    }
  }
}
