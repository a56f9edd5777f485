package dev.pointsman.gateway.proxy;

import dev.pointsman.gateway.config.GatewayConfig;
import dev.pointsman.gateway.extproc.PickerClient;
import dev.pointsman.gateway.telemetry.GatewayMetrics;

/**
 * What every exchange of one gateway shares. Thread-safe parts only.
 *
 * @param config the configuration
 * @param router the route table
 * @param pool model-server connections
 * @param picker the ext_proc channel
 * @param metrics meters
 */
record ProxyContext(
    GatewayConfig config,
    Router router,
    UpstreamPool pool,
    PickerClient picker,
    GatewayMetrics metrics) {

  static ProxyContext create(GatewayConfig config, PickerClient picker, GatewayMetrics metrics) {
    return new ProxyContext(
        config,
        new Router(config.fallback(), config.paths()),
        new UpstreamPool(config.timeouts().upstreamConnect()),
        picker,
        metrics);
  }
}
