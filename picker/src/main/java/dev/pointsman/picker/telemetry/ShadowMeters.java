package dev.pointsman.picker.telemetry;

import dev.pointsman.picker.shadow.ShadowRouting;
import dev.pointsman.picker.shadow.ShadowStats;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;

/** Shadow mode's meters: decisions, would-differ, and the TTFT prediction error distribution. */
public final class ShadowMeters {
  private ShadowMeters() {}

  public static void register(MeterRegistry registry, ShadowRouting shadow) {
    ShadowStats s = shadow.stats();
    FunctionCounter.builder("pointsman.shadow.decisions", s, ShadowStats::decisions)
        .description("Requests decided in shadow mode (routed by the existing balancer)")
        .register(registry);
    FunctionCounter.builder("pointsman.shadow.served", s, ShadowStats::served)
        .description("Shadow decisions whose served endpoint the proxy reported")
        .register(registry);
    FunctionCounter.builder("pointsman.shadow.would.differ", s, ShadowStats::wouldDiffer)
        .description("Served requests the picker would have sent to another endpoint")
        .register(registry);
    DistributionSummary error =
        DistributionSummary.builder("pointsman.shadow.ttft.prediction.error")
            .description(
                "Absolute relative error of the TTFT predicted for the endpoint that served,"
                    + " |predicted - observed| / observed")
            .serviceLevelObjectives(0.1, 0.25, 0.5, 1.0, 2.0)
            .register(registry);
    s.onPredictionError(error::record);
  }
}
