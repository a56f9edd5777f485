package dev.pointsman.picker.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.flowcontrol.DropReason;
import dev.pointsman.picker.flowcontrol.FlowRequest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class FlowMetricsTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final FlowMetrics metrics = new FlowMetrics(registry);

  private static FlowRequest request(int priority, String tenant) {
    return new FlowRequest("r", priority, tenant, 10, 10, 10, 0, FlowRequest.NO_DEADLINE);
  }

  @Test
  void queueDepthByBandAndTenantWaitByBandRejectionsByReason() {
    metrics.queued(request(0, "a"));
    metrics.queued(request(0, "a"));
    metrics.queued(request(-1, "b"));
    metrics.dequeued(request(0, "a"), 250_000_000L);
    metrics.rejected(request(-1, "b"), DropReason.EVICTED);

    assertThat(depth("0", "a")).isEqualTo(1);
    assertThat(depth("-1", "b")).isEqualTo(1);
    assertThat(
            registry
                .get("inference.extension.flow.control.request.queue.duration")
                .tag("priority", "0")
                .timer()
                .totalTime(TimeUnit.MILLISECONDS))
        .isEqualTo(250);
    assertThat(
            registry
                .get("pointsman.flow.control.rejections")
                .tags("reason", "evicted", "priority", "-1", "fairness_id", "b")
                .counter()
                .count())
        .isEqualTo(1);
  }

  @Test
  void tenantsPastTheFirstFiftyAreLabelledOther() {
    for (int i = 0; i < FlowMetrics.MAX_TENANTS + 20; i++) {
      metrics.queued(request(0, "t" + i));
    }

    assertThat(registry.find("inference.extension.flow.control.queue.size").gauges())
        .hasSize(FlowMetrics.MAX_TENANTS + 1);
    assertThat(depth("0", "other")).isEqualTo(20);
    assertThat(depth("0", "t0")).isEqualTo(1);
  }

  private double depth(String priority, String tenant) {
    return registry
        .get("inference.extension.flow.control.queue.size")
        .tags("priority", priority, "fairness_id", tenant)
        .gauge()
        .value();
  }
}
