package dev.pointsman.picker.scheduling;

/**
 * An endpoint as one decision sees it: scraped metrics plus the picker's own accounting since.
 *
 * @param state the endpoint and its last scrape
 * @param load the picker's own pending and live requests on it
 * @param profile the endpoint's speed profile
 */
public record Candidate(EndpointState state, InFlightTracker.Load load, SpeedProfile profile) {

  public String address() {
    return state.endpoint().address();
  }

  public EndpointMetrics metrics() {
    return state.metrics();
  }

  /** Waiting requests: scraped, plus those picked here since that scrape. */
  public int waiting() {
    return state.metrics().waitingRequests() + load.pendingRequests();
  }

  /** Running requests as last scraped. */
  public int running() {
    return state.metrics().runningRequests();
  }

  /** Context tokens assumed per running sequence when the KV-cache capacity is unknown. */
  static final int TYPICAL_CONTEXT_TOKENS = 512;

  /**
   * Tokens of KV cache the running batch holds, as last scraped (use × capacity), or the running
   * requests at a typical context when the capacity is unknown.
   */
  public double contextTokens() {
    EndpointMetrics m = state.metrics();
    return m.kvCapacityTokens() > 0
        ? m.kvUsageOrZero() * m.kvCapacityTokens()
        : (double) running() * TYPICAL_CONTEXT_TOKENS;
  }
}
