package dev.pointsman.body.router;

import dev.pointsman.extproc.ExtProcEvents;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The body router's meters. The model label takes canonical names from configuration or discovery
 * only (requests for unknown models are refused before they are counted here).
 */
final class BodyRouterMetrics implements ExtProcEvents {
  private final MeterRegistry registry;

  BodyRouterMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  void routed(String model) {
    Counter.builder("pointsman.bodyrouter.requests")
        .description("Requests whose model was resolved and headers set")
        .tag("model_name", model)
        .register(registry)
        .increment();
  }

  @Override
  public void onRejected(String reason, int httpStatus) {
    Counter.builder("pointsman.bodyrouter.rejected")
        .description("Requests refused, by reason and HTTP status")
        .tag("reason", reason)
        .tag("status", Integer.toString(httpStatus))
        .register(registry)
        .increment();
  }

  @Override
  public void onStreamEnd(String how) {
    Counter.builder("pointsman.extproc.streams")
        .description("ext_proc streams ended, by how")
        .tag("end", how)
        .register(registry)
        .increment();
  }
}
