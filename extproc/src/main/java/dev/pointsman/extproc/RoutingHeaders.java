package dev.pointsman.extproc;

import java.util.List;

/**
 * The routing headers a client must never set: the data plane removes them from every request
 * before the route is computed and before the picker sees it ({@code deploy/envoy/envoy.yaml}'s
 * early header mutation and header-mutation filter; docs/envoy.md), so only the picker's reply can
 * carry them. The last two are the fleet tier's ({@code deploy/envoy-fleet/envoy.yaml}).
 */
public final class RoutingHeaders {
  /** In the order of the Envoy configuration's list; lower-case. */
  public static final List<String> STRIPPED =
      List.of(
          "x-gateway-destination-endpoint",
          "x-gateway-destination-endpoint-subset",
          "x-gateway-destination-endpoint-served",
          "x-gateway-model-name",
          "x-gateway-base-model-name",
          "x-gateway-model-name-rewrite",
          "x-envoy-original-dst-host",
          "x-pointsman-app-protocol",
          "x-pointsman-fleet-fallbacks",
          "x-pointsman-fleet-route");

  private RoutingHeaders() {}
}
