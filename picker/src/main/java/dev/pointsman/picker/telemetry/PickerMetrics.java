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
  private final DecisionLog log;
  private final Timer decisionTime;
  private final HeldMeters<Counter> decisions;
  private final HeldMeters<Counter> requests;
  private final HeldMeters<Counter> errors;
  private final HeldMeters<Timer> ttft;
  private final HeldMeters<Counter> responses;
  private final HeldMeters<DistributionSummary> promptTokens;
  private final HeldMeters<Counter> cachedTokens;
  private final HeldMeters<Counter> streams;
  private final Counter balancerIgnored;

  public PickerMetrics(MeterRegistry registry, DecisionLog log) {
    this.log = log;
    this.decisionTime =
        Timer.builder("inference.extension.scheduler.e2e.duration")
            .description("Time to take one routing decision (parse excluded)")
            .publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofNanos(1_000))
            .maximumExpectedValue(Duration.ofMillis(100))
            .register(registry);
    this.decisions =
        new HeldMeters<>(
            (pool, result) ->
                Counter.builder("pointsman.decisions")
                    .description("Routing decisions by result")
                    .tag("pool", pool)
                    .tag("result", result)
                    .register(registry));
    this.requests =
        new HeldMeters<>(
            (model, unused) ->
                Counter.builder("inference.objective.request")
                    .description("Requests routed, by model")
                    .tag("model_name", model)
                    .register(registry));
    this.errors =
        new HeldMeters<>(
            (reason, status) ->
                Counter.builder("inference.objective.request.error")
                    .description("Requests refused, by reason and HTTP status")
                    .tag("error_code", reason)
                    .tag("status", status)
                    .register(registry));
    this.ttft =
        new HeldMeters<>(
            (pool, unused) ->
                Timer.builder("pointsman.ttft")
                    .description("Observed time to first response byte, from the decision")
                    .tag("pool", pool)
                    .publishPercentileHistogram()
                    .minimumExpectedValue(Duration.ofMillis(1))
                    .maximumExpectedValue(Duration.ofSeconds(60))
                    .register(registry));
    this.responses =
        new HeldMeters<>(
            (pool, end) ->
                Counter.builder("pointsman.responses")
                    .description("Routed requests whose response ended, by how")
                    .tag("pool", pool)
                    .tag("end", end)
                    .register(registry));
    this.promptTokens =
        new HeldMeters<>(
            (pool, unused) ->
                DistributionSummary.builder("pointsman.prompt.tokens")
                    .tag("pool", pool)
                    .register(registry));
    this.cachedTokens =
        new HeldMeters<>(
            (pool, unused) ->
                Counter.builder("pointsman.cached.prompt.tokens")
                    .description("Prompt tokens the model servers reported as served from cache")
                    .tag("pool", pool)
                    .register(registry));
    this.streams =
        new HeldMeters<>(
            (how, unused) ->
                Counter.builder("pointsman.extproc.streams")
                    .description("ext_proc streams ended, by how")
                    .tag("end", how)
                    .register(registry));
    this.balancerIgnored =
        Counter.builder("pointsman.shadow.balancer.ignored")
            .description(
                "Shadow mode, destination balancer: the balancer's endpoint was not a candidate, so"
                    + " the request took the default route")
            .register(registry);
  }

  @Override
  public void onDecision(RouteInput input, RouteOutcome outcome, long decisionNanos) {
    decisionTime.record(decisionNanos, TimeUnit.NANOSECONDS);
    switch (outcome) {
      case RouteOutcome.Routed r -> {
        decisions.get(r.pool(), "routed").increment();
        requests.get(r.model()).increment();
      }
      case RouteOutcome.Rejected j ->
          // counted in inference_objective_request_error_total by onRejected, like every refusal
          decisions.get("", j.reason()).increment();
    }
    log.record(input, outcome, decisionNanos);
  }

  /** Every refusal, whether routing's or the protocol's, arrives here exactly once. */
  @Override
  public void onRejected(String reason, int httpStatus) {
    errors.get(reason, Integer.toString(httpStatus)).increment();
  }

  @Override
  public void onCompleted(RouteOutcome.Routed routed, Completion completion) {
    if (completion.ttftNanos() >= 0) {
      ttft.get(routed.pool()).record(completion.ttftNanos(), TimeUnit.NANOSECONDS);
    }
    responses.get(routed.pool(), completion.end().label()).increment();
    if (completion.usage().promptTokens() >= 0) {
      promptTokens.get(routed.pool()).record(completion.usage().promptTokens());
    }
    if (completion.usage().cachedTokens() >= 0) {
      cachedTokens.get(routed.pool()).increment(completion.usage().cachedTokens());
    }
  }

  @Override
  public void onBalancerChoiceIgnored() {
    balancerIgnored.increment();
  }

  @Override
  public void onStreamEnd(String how) {
    streams.get(how).increment();
  }
}
