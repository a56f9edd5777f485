package dev.pointsman.picker.telemetry;

import dev.pointsman.picker.flowcontrol.Budget;
import dev.pointsman.picker.flowcontrol.DropReason;
import dev.pointsman.picker.flowcontrol.FlowListener;
import dev.pointsman.picker.flowcontrol.FlowRequest;
import dev.pointsman.picker.flowcontrol.TokenBudgets;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Flow control's meters, named as the GIE picker's flow control names them where the meaning
 * matches: queue depth by band and tenant, time waited by band, refusals by reason. Labels are
 * bounded: {@code priority} is an objective's priority (configuration), {@code fairness_id} is the
 * tenant for the first {@link #MAX_TENANTS} tenants seen and {@code other} after them. Thread-safe.
 */
public final class FlowMetrics implements FlowListener {
  /** Distinct tenants labelled by name; later ones are counted as {@code other}. */
  public static final int MAX_TENANTS = 50;

  private final MeterRegistry registry;
  private final Set<String> tenants = ConcurrentHashMap.newKeySet();
  private final Map<String, AtomicLong> depths = new ConcurrentHashMap<>();

  public FlowMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void queued(FlowRequest request) {
    depth(request).incrementAndGet();
  }

  @Override
  public void dequeued(FlowRequest request, long waitNanos) {
    depth(request).decrementAndGet();
    Timer.builder("inference.extension.flow.control.request.queue.duration")
        .description("Time requests waited in the picker's flow-control queue, by band")
        .tag("priority", Integer.toString(request.priority()))
        .publishPercentileHistogram()
        .minimumExpectedValue(Duration.ofMillis(1))
        .maximumExpectedValue(Duration.ofSeconds(60))
        .register(registry)
        .record(Math.max(0, waitNanos), TimeUnit.NANOSECONDS);
  }

  @Override
  public void rejected(FlowRequest request, DropReason reason) {
    Counter.builder("pointsman.flow.control.rejections")
        .description(
            "Requests flow control refused, by reason (ttl, overflow, deadline, evicted, budget)")
        .tag("reason", reason.label())
        .tag("priority", Integer.toString(request.priority()))
        .tag("fairness_id", tenant(request.tenant()))
        .register(registry)
        .increment();
  }

  /**
   * One gauge per configured budget: the tokens (and requests) left in it now. Bounded by the
   * configuration.
   */
  public void bindBudgets(TokenBudgets budgets) {
    for (Budget b : budgets.budgets()) {
      String model = b.model() == null ? "" : b.model();
      if (b.tokensPerMinute() > 0) {
        Gauge.builder(
                "pointsman.flow.control.budget.remaining.tokens",
                budgets,
                t -> t.remainingTokens(b.tenant(), b.model()))
            .description("Tokens left in a tenant's budget for the current minute")
            .tag("fairness_id", b.tenant())
            .tag("model", model)
            .register(registry);
      }
    }
  }

  private AtomicLong depth(FlowRequest request) {
    String priority = Integer.toString(request.priority());
    String tenant = tenant(request.tenant());
    return depths.computeIfAbsent(
        priority + "\u0000" + tenant,
        k -> {
          AtomicLong depth = new AtomicLong();
          Gauge.builder("inference.extension.flow.control.queue.size", depth, AtomicLong::get)
              .description(
                  "Requests waiting in the picker's flow-control queue, by band and tenant")
              .tag("priority", priority)
              .tag("fairness_id", tenant)
              .register(registry);
          return depth;
        });
  }

  /** The tenant's label: itself among the first {@link #MAX_TENANTS}, else {@code other}. */
  String tenant(String tenant) {
    if (tenants.contains(tenant)) {
      return tenant;
    }
    synchronized (tenants) {
      if (tenants.size() < MAX_TENANTS) {
        tenants.add(tenant);
        return tenant;
      }
    }
    return tenants.contains(tenant) ? tenant : "other";
  }
}
