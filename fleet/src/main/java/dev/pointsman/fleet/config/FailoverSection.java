package dev.pointsman.fleet.config;

import dev.pointsman.fleet.health.Failover;

/** {@link Failover} as the file gives it; every key optional, see there for the meanings. */
public record FailoverSection(
    Long staleAfterMillis,
    Integer summaryFailures,
    Double errorRate,
    Integer minRequests,
    Long windowMillis,
    Long ejectMillis,
    Long rampMillis) {

  public static final FailoverSection DEFAULTS =
      new FailoverSection(null, null, null, null, null, null, null);

  public FailoverSection {
    toFailover(); // validates
  }

  public Failover toFailover() {
    Failover d = Failover.DEFAULTS;
    return new Failover(
        staleAfterMillis == null ? d.staleAfterMillis() : staleAfterMillis,
        summaryFailures == null ? d.summaryFailures() : summaryFailures,
        errorRate == null ? d.errorRate() : errorRate,
        minRequests == null ? d.minRequests() : minRequests,
        windowMillis == null ? d.windowMillis() : windowMillis,
        ejectMillis == null ? d.ejectMillis() : ejectMillis,
        rampMillis == null ? d.rampMillis() : rampMillis);
  }
}
