package dev.pointsman.picker.scrape;

import java.net.URI;
import java.util.EnumSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one endpoint's scrapes tell an operator once, not at every scrape: each signal it lacks, a
 * metrics page that is not Prometheus text, a model listing without lineage; and each change
 * between serving and not serving (a vLLM engine going to sleep or waking). The scrape path and the
 * listing path of one {@link TargetTask} each call their own methods, never concurrently with
 * themselves.
 */
final class Warnings {

  private static final Logger log = LoggerFactory.getLogger(Warnings.class);

  private final ScrapeTarget target;
  private final Set<Signal> warned = EnumSet.noneOf(Signal.class);
  private volatile boolean notPrometheusText;
  private volatile boolean noLineage;
  private volatile boolean tlsWarned;
  private volatile String notServing;

  Warnings(ScrapeTarget target) {
    this.target = target;
  }

  /** Warns of each signal not warned of before; returns those. */
  Set<Signal> missing(Set<Signal> missing) {
    Set<Signal> now = EnumSet.noneOf(Signal.class);
    for (Signal s : missing) {
      if (warned.add(s)) {
        now.add(s);
        log.warn(
            "endpoint {} ({}): its metrics lack {}; {}",
            target.address(),
            target.engine().configName(),
            s.description(),
            s.fallback());
      }
    }
    return now;
  }

  /** Warns the first time; returns whether it did. */
  boolean notPrometheusText(URI uri) {
    if (notPrometheusText) {
      return false;
    }
    notPrometheusText = true;
    log.warn(
        "endpoint {} ({}): {} answers JSON, not Prometheus text; it is not routed (set the"
            + " pool's metricsPath; trtllm-serve serves text at /prometheus/metrics)",
        target.address(),
        target.engine().configName(),
        uri);
    return true;
  }

  /**
   * Warns of a failed TLS handshake, once until a scrape succeeds again; returns whether it did.
   */
  boolean tls(URI uri, Throwable error) {
    if (tlsWarned) {
      return false;
    }
    tlsWarned = true;
    Throwable cause = error;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    log.warn(
        "endpoint {}: the TLS handshake for {} failed ({}); it is not routed until it succeeds"
            + " (scrape.tls: caFile must hold the CA that issued the endpoint's certificate; an"
            + " endpoint serving plain HTTP needs scrape.tls.enabled false)",
        target.address(),
        uri,
        cause.toString());
    return true;
  }

  /** A scrape succeeded: the next TLS failure is warned of again. */
  void tlsWorks() {
    tlsWarned = false;
  }

  /** Warns the first time; returns whether it did. */
  boolean noLineage() {
    if (noLineage) {
      return false;
    }
    noLineage = true;
    log.warn(
        "endpoint {} ({}): its model listing does not say which entries are LoRA adapters (no"
            + " 'parent'); it restricts no adapter, and residency comes from its metrics only",
        target.address(),
        target.engine().configName());
    return true;
  }

  void notServing(String reason) {
    String before = notServing;
    notServing = reason;
    if (reason != null && before == null) {
      log.warn("endpoint {}: {}; not routed until it serves again", target.address(), reason);
    } else if (reason == null && before != null) {
      log.info("endpoint {}: serving again (was {})", target.address(), before);
    }
  }
}
