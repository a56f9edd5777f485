package dev.pointsman.picker.flowcontrol;

/**
 * One budget's running balance: token buckets that refill continuously to a minute's worth. Tokens
 * are reserved from the estimate at admission and settled from the response's usage at the end, so
 * the balance may go below zero (a tenant that under-estimates waits longer). Not thread-safe:
 * {@link TokenBudgets} holds its lock around it.
 */
final class Allowance {
  private static final double NANOS_PER_MINUTE = 60e9;

  private final Budget budget;
  private double tokens;
  private double requests;
  private long refilledAt;
  private long ownTokens;
  private long ownRequests;

  Allowance(Budget budget, long now) {
    this.budget = budget;
    this.tokens = budget.tokensPerMinute();
    this.requests = budget.requestsPerMinute();
    this.refilledAt = now;
  }

  Budget budget() {
    return budget;
  }

  void refill(long now) {
    long elapsed = now - refilledAt;
    if (elapsed <= 0) {
      return;
    }
    refilledAt = now;
    double minutes = elapsed / NANOS_PER_MINUTE;
    tokens = Math.min(budget.tokensPerMinute(), tokens + minutes * budget.tokensPerMinute());
    requests =
        Math.min(budget.requestsPerMinute(), requests + minutes * budget.requestsPerMinute());
  }

  /** The tokens a request of {@code estimate} must find: at most a full minute's worth. */
  private long needed(long estimate) {
    return Math.min(estimate, budget.tokensPerMinute());
  }

  /** Seconds until a request of {@code estimate} tokens fits, 0 if it fits now. */
  long waitSeconds(long estimate) {
    double seconds = 0;
    if (budget.tokensPerMinute() > 0 && tokens < needed(estimate)) {
      seconds = (needed(estimate) - tokens) * 60.0 / budget.tokensPerMinute();
    }
    if (budget.requestsPerMinute() > 0 && requests < 1) {
      seconds = Math.max(seconds, (1 - requests) * 60.0 / budget.requestsPerMinute());
    }
    return seconds == 0 ? 0 : Math.max(1, (long) Math.ceil(seconds));
  }

  void take(long estimate) {
    ownTokens += estimate;
    ownRequests++;
    charge(estimate, 1);
  }

  void giveTokens(long n) {
    ownTokens -= n;
    charge(-n, 0);
  }

  void giveRequest() {
    ownRequests--;
    charge(0, -1);
  }

  /**
   * Takes {@code n} tokens and {@code r} requests off the buckets (negative: gives them back, up to
   * a full bucket), without counting them as this replica's own use: a peer's use, or this one's.
   */
  void charge(long n, long r) {
    if (budget.tokensPerMinute() > 0) {
      tokens = Math.min(budget.tokensPerMinute(), tokens - n);
    }
    if (budget.requestsPerMinute() > 0) {
      requests = Math.min(budget.requestsPerMinute(), requests - r);
    }
  }

  double tokens() {
    return tokens;
  }

  double requests() {
    return requests;
  }

  /**
   * Lowers the buckets to a peer's balance where it holds less than this one does: the peer counted
   * use this replica never saw. Never raises them.
   */
  void lowerTo(double peerTokens, double peerRequests) {
    tokens = Math.min(tokens, peerTokens);
    requests = Math.min(requests, peerRequests);
  }

  /** Tokens charged by this replica since it started, net of what it gave back. */
  long ownTokens() {
    return ownTokens;
  }

  /** Requests charged by this replica since it started, net of releases. */
  long ownRequests() {
    return ownRequests;
  }

  /** Whole tokens left now (may be negative), or -1 with no token limit. */
  long remainingTokens() {
    return budget.tokensPerMinute() > 0 ? (long) Math.floor(tokens) : -1;
  }

  /** Whole requests left now, or -1 with no request limit. */
  long remainingRequests() {
    return budget.requestsPerMinute() > 0 ? (long) Math.floor(Math.max(0, requests)) : -1;
  }
}
