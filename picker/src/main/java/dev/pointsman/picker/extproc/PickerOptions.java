package dev.pointsman.picker.extproc;

import java.util.Objects;

/**
 * How the picker speaks the Endpoint Picker Protocol to its data plane.
 *
 * @param dataPlane what routes on the destination the picker sets
 * @param conformanceTestHooks the Gateway API Inference Extension conformance hooks: the {@code
 *     test-epp-endpoint-selection} request header restricts the candidates and responses carry
 *     {@code x-conformance-test-served-endpoint}. Test only: with it on, any client can choose its
 *     pod
 * @param shadow shadow mode: the reply carries no destination (header or metadata), the data plane
 *     routes by its own cluster; the decision is still made, counted and learned from
 * @param balancerHeader in shadow mode, the request header in which a balancer in front of the
 *     gateway names the endpoint it chose: the reply routes there when it is one of the decision's
 *     candidates; null: no destination
 */
public record PickerOptions(
    DataPlane dataPlane, boolean conformanceTestHooks, boolean shadow, String balancerHeader) {
  public static final PickerOptions DEFAULTS = new PickerOptions(DataPlane.ORIGINAL_DST, false);

  public PickerOptions {
    Objects.requireNonNull(dataPlane, "dataPlane");
    if (balancerHeader != null && !shadow) {
      throw new IllegalArgumentException(
          "balancerHeader: '" + balancerHeader + "' outside shadow mode (expected shadow: true)");
    }
  }

  public PickerOptions(DataPlane dataPlane, boolean conformanceTestHooks) {
    this(dataPlane, conformanceTestHooks, false, null);
  }

  /** These options in shadow mode, with no destination. */
  public PickerOptions inShadow() {
    return inShadow(null);
  }

  /**
   * These options in shadow mode, routing to the balancer's choice in {@code header} if not null.
   */
  public PickerOptions inShadow(String header) {
    return new PickerOptions(dataPlane, conformanceTestHooks, true, header);
  }

  /** What the data plane does with {@code x-gateway-destination-endpoint}. */
  public enum DataPlane {
    /**
     * An ORIGINAL_DST cluster: the header must be exactly one {@code ip:port}. The header and the
     * {@code envoy.lb} destination both hold the primary; fallbacks ride apart, in {@code
     * envoy.lb/x-gateway-destination-endpoint-fallbacks}.
     */
    ORIGINAL_DST,
    /**
     * Envoy's {@code override_host} load-balancing policy (or another data plane that retries
     * through a list): the header and the {@code envoy.lb} destination both hold the primary then
     * the fallbacks, comma-separated.
     */
    OVERRIDE_HOST
  }
}
