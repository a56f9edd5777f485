package dev.pointsman.picker.config;

import dev.pointsman.picker.extproc.FlowHeaders;
import dev.pointsman.picker.flowcontrol.Budget;
import dev.pointsman.picker.flowcontrol.FlowLimits;
import dev.pointsman.picker.flowcontrol.TokenBudgets;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Flow control: requests for saturated pools wait in the picker, in priority bands shared fairly
 * between tenants, instead of piling onto full pods. Off by default. See docs/picker.md "Flow
 * control".
 *
 * @param enabled whether requests may wait in the picker at all
 * @param maxQueued requests that may wait at once, per group of pools (default 1000)
 * @param maxQueuedBytes request-body bytes that may wait at once, per group of pools (default 256
 *     MiB)
 * @param ttlMillis how long one request may wait before it is refused (default 30000)
 * @param fairnessHeader the request header naming the tenant (default {@code
 *     x-gateway-inference-fairness-id}); requests without it share one default flow
 * @param deadlineHeader the request header carrying the time-to-first-token objective in
 *     milliseconds (default {@code x-slo-ttft-ms})
 * @param budgets tenants' token and request budgets per minute, kept by each replica alone (none by
 *     default: tenants are not limited)
 * @param sheddableHeadroom the share of the saturation queue threshold kept for non-sheddable work:
 *     sheddable requests wait until the least loaded endpoint's queue is below {@code (1 -
 *     sheddableHeadroom) × queueThreshold} (default 0.8; 0: whenever the pool is not saturated)
 * @param tenantShareLoad from this pool load (the least loaded endpoint's queue as a share of the
 *     queue threshold) up, a tenant with more requests in flight than an equal share waits while
 *     the others go, before the pool saturates; absent: off
 * @param maxQueuedBytesTotal request-body bytes that may wait at once in every group's queue
 *     together, the memory held bodies may take (default {@link #HEAP_SHARE_TOTAL} of the JVM's
 *     maximum heap)
 */
public record FlowControlSection(
    Boolean enabled,
    Integer maxQueued,
    Long maxQueuedBytes,
    Long ttlMillis,
    String fairnessHeader,
    String deadlineHeader,
    List<BudgetEntry> budgets,
    Double sheddableHeadroom,
    Double tenantShareLoad,
    Long maxQueuedBytesTotal) {
  // before DEFAULTS: its constructor reads it
  private static final Pattern HEADER = Pattern.compile("[a-z0-9][a-z0-9!#$%&'*+.^_`|~-]*");

  public static final FlowControlSection DEFAULTS =
      new FlowControlSection(null, null, null, null, null, null, null, null, null, null);

  /** The share of the heap waiting bodies may take in all, unless {@code maxQueuedBytesTotal}. */
  public static final double HEAP_SHARE_TOTAL = 0.25;

  public FlowControlSection {
    enabled = enabled != null && enabled;
    maxQueued = maxQueued == null ? 1000 : maxQueued;
    maxQueuedBytes = maxQueuedBytes == null ? 256L << 20 : maxQueuedBytes;
    ttlMillis = ttlMillis == null ? 30_000L : ttlMillis;
    fairnessHeader = fairnessHeader == null ? FlowHeaders.DEFAULT_FAIRNESS : fairnessHeader;
    deadlineHeader = deadlineHeader == null ? FlowHeaders.DEFAULT_DEADLINE : deadlineHeader;
    budgets = budgets == null ? List.of() : List.copyOf(budgets);
    sheddableHeadroom =
        sheddableHeadroom == null ? FlowLimits.DEFAULT_SHEDDABLE_HEADROOM : sheddableHeadroom;
    new TokenBudgets(budgetList(budgets), () -> 0L); // no tenant and model twice
    if (maxQueued < 1) {
      throw new IllegalArgumentException("maxQueued: " + maxQueued + " (expected >= 1)");
    }
    if (maxQueuedBytes < 1) {
      throw new IllegalArgumentException("maxQueuedBytes: " + maxQueuedBytes + " (expected >= 1)");
    }
    if (maxQueuedBytesTotal != null && maxQueuedBytesTotal < 1) {
      throw new IllegalArgumentException(
          "maxQueuedBytesTotal: " + maxQueuedBytesTotal + " (expected >= 1)");
    }
    if (ttlMillis < 1 || ttlMillis > 3_600_000) {
      throw new IllegalArgumentException("ttlMillis: " + ttlMillis + " (expected 1..3600000)");
    }
    header("fairnessHeader", fairnessHeader);
    header("deadlineHeader", deadlineHeader);
    tenantShareLoad = tenantShareLoad == null ? FlowLimits.TENANT_SHARE_OFF : tenantShareLoad;
    if (!(tenantShareLoad >= 0)) {
      throw new IllegalArgumentException(
          "tenantShareLoad: " + tenantShareLoad + " (expected >= 0; absent for off)");
    }
    if (!(sheddableHeadroom >= 0 && sheddableHeadroom < 1)) {
      throw new IllegalArgumentException(
          "sheddableHeadroom: " + sheddableHeadroom + " (expected in [0, 1))");
    }
  }

  private static void header(String key, String name) {
    if (!HEADER.matcher(name).matches()) {
      throw new IllegalArgumentException(
          key + ": '" + name + "' (expected a lower-case HTTP header name)");
    }
  }

  /**
   * One tenant's budget per minute.
   *
   * @param fairnessId the tenant (the fairness header's value)
   * @param model the model it applies to, or absent for all the tenant's models
   * @param tokensPerMinute prompt plus generated tokens per minute; absent or 0: no token limit
   * @param requestsPerMinute requests per minute; absent or 0: no request limit
   */
  public record BudgetEntry(
      String fairnessId, String model, Long tokensPerMinute, Long requestsPerMinute) {
    public BudgetEntry {
      tokensPerMinute = tokensPerMinute == null ? 0 : tokensPerMinute;
      requestsPerMinute = requestsPerMinute == null ? 0 : requestsPerMinute;
      toBudget(fairnessId, model, tokensPerMinute, requestsPerMinute); // validates
    }

    private static Budget toBudget(String fairnessId, String model, long tokens, long requests) {
      if (fairnessId == null) {
        throw new IllegalArgumentException("fairnessId: null (expected a tenant)");
      }
      return new Budget(fairnessId, model, tokens, requests);
    }

    public Budget toBudget() {
      return toBudget(fairnessId, model, tokensPerMinute, requestsPerMinute);
    }
  }

  private static List<Budget> budgetList(List<BudgetEntry> entries) {
    return entries.stream().map(BudgetEntry::toBudget).toList();
  }

  /** The budgets, on the injected clock. */
  public TokenBudgets tokenBudgets(java.util.function.LongSupplier nanos) {
    return tokenBudgets(budgets, nanos);
  }

  /** Budgets made from {@code entries} (a tenant and model twice is an error), on a clock. */
  public static TokenBudgets tokenBudgets(
      List<BudgetEntry> entries, java.util.function.LongSupplier nanos) {
    return new TokenBudgets(budgetList(entries), nanos);
  }

  /** The bound on waiting bodies in all, in a JVM whose maximum heap is {@code maxHeapBytes}. */
  public long queuedBytesTotal(long maxHeapBytes) {
    if (maxQueuedBytesTotal != null) {
      return maxQueuedBytesTotal;
    }
    return Math.max(1, (long) (maxHeapBytes * HEAP_SHARE_TOTAL));
  }

  /** The queue's bounds. */
  public FlowLimits limits() {
    return new FlowLimits(
        maxQueued, maxQueuedBytes, ttlMillis * 1_000_000L, sheddableHeadroom, tenantShareLoad);
  }

  /** The headers the protocol layer reads, or null when flow control is off. */
  public FlowHeaders headers() {
    return enabled ? new FlowHeaders(fairnessHeader, deadlineHeader) : null;
  }
}
