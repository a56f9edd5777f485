package dev.pointsman.picker.telemetry;

import dev.pointsman.extproc.Completion;
import dev.pointsman.picker.extproc.ExtProcObserver;
import dev.pointsman.picker.routing.RouteInput;
import dev.pointsman.picker.routing.RouteOutcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The ext_proc service's meters. Names follow the Gateway API Inference Extension picker's where
 * the meaning matches. Labels are bounded: pool names come from configuration, reasons and results
 * from fixed sets; never request ids or endpoint addresses.
 */
public final class PickerMetrics implements ExtProcObserver {
  private final MeterRegistry registry;
  private final DecisionLog log;
  private final Timer decisionTime;

  public PickerMetrics(MeterRegistry registry, DecisionLog log) {
    this.registry = registry;
    this.log = log;
    this.decisionTime =
        Timer.builder("inference.extension.scheduler.e2e.duration")
            .description("Time to take one routing decision (parse excluded)")
            .publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofNanos(1_000))
            .maximumExpectedValue(Duration.ofMillis(100))
            .register(registry);
  }

  @Override
  public void onDecision(RouteInput input, RouteOutcome outcome, long decisionNanos) {
    decisionTime.record(decisionNanos, TimeUnit.NANOSECONDS);
    switch (outcome) {
      case RouteOutcome.Routed r -> {
        decisions(r.pool(), "routed").increment();
        Counter.builder("inference.objective.request")
            .description("Requests routed, by model")
            .tag("model_name", r.model())
            .register(registry)
            .increment();
      }
      case RouteOutcome.Rejected j ->
          // counted in inference_objective_request_error_total by onRejected, like every refusal
          decisions("", j.reason()).increment();
    }
    log.record(input, outcome, decisionNanos);
  }

  /** Every refusal, whether routing's or the protocol's, arrives here exactly once. */
  @Override
  public void onRejected(String reason, int httpStatus) {
    errors(reason, httpStatus).increment();
  }

  @Override
  public void onCompleted(RouteOutcome.Routed routed, Completion completion) {
    if (completion.ttftNanos() >= 0) {
      Timer.builder("pointsman.ttft")
          .description("Observed time to first response byte, from the decision")
          .tag("pool", routed.pool())
          .publishPercentileHistogram()
          .minimumExpectedValue(Duration.ofMillis(1))
          .maximumExpectedValue(Duration.ofSeconds(60))
          .register(registry)
          .record(completion.ttftNanos(), TimeUnit.NANOSECONDS);
    }
    Counter.builder("pointsman.responses")
        .description("Routed requests whose response ended, by how")
        .tag("pool", routed.pool())
        .tag("end", completion.end().name().toLowerCase(java.util.Locale.ROOT))
        .register(registry)
        .increment();
    if (completion.usage().promptTokens() >= 0) {
      DistributionSummary.builder("pointsman.prompt.tokens")
          .tag("pool", routed.pool())
          .register(registry)
          .record(completion.usage().promptTokens());
    }
    if (completion.usage().cachedTokens() >= 0) {
      Counter.builder("pointsman.cached.prompt.tokens")
          .description("Prompt tokens the model servers reported as served from cache")
          .tag("pool", routed.pool())
          .register(registry)
          .increment(completion.usage().cachedTokens());
    }
  }

  @Override
  public void onBalancerChoiceIgnored() {
    Counter.builder("pointsman.shadow.balancer.ignored")
        .description(
            "Shadow mode, destination balancer: the balancer's endpoint was not a candidate, so the"
                + " request took the default route")
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

  private Counter decisions(String pool, String result) {
    return Counter.builder("pointsman.decisions")
        .description("Routing decisions by result")
        .tag("pool", pool)
        .tag("result", result)
        .register(registry);
  }

  private Counter errors(String reason, int status) {
    return Counter.builder("inference.objective.request.error")
        .description("Requests refused, by reason and HTTP status")
        .tag("error_code", reason)
        .tag("status", Integer.toString(status))
        .register(registry);
  }
}
