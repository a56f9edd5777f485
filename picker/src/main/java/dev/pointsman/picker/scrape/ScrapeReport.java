package dev.pointsman.picker.scrape;

import java.util.Set;

/**
 * What a successful scrape says about an endpoint besides its metrics: what it lacked, whether it
 * serves, what its model listing was worth. Shown per endpoint in the picker's meters and debug
 * pages.
 *
 * @param missing signals the exposition lacked: the picker runs on a fallback for each
 * @param notServing why the engine, though answering, serves nothing now ({@code sleeping}); null
 *     when it serves
 * @param listing the last model listing read: {@code ok}, {@code no_lineage} (it does not say which
 *     entries are adapters, so it restricts nothing), or {@code unknown} (not read yet, off,
 *     failing or expired)
 * @param restarted the engine's counters went backwards since the previous scrape: a new process
 *     behind the address, its caches empty
 */
public record ScrapeReport(
    Set<Signal> missing, String notServing, String listing, boolean restarted) {

  /** Nothing missing, serving, listing unknown. */
  public static final ScrapeReport NONE = new ScrapeReport(Set.of(), null, "unknown");

  /** The {@link #notServing} reason of an engine in sleep mode. */
  public static final String SLEEPING = "sleeping";

  /** A report of an engine that did not restart. */
  public ScrapeReport(Set<Signal> missing, String notServing, String listing) {
    this(missing, notServing, listing, false);
  }

  public ScrapeReport {
    missing = Set.copyOf(missing);
    if (listing == null || listing.isBlank()) {
      throw new IllegalArgumentException(
          "listing: '" + listing + "' (expected ok, no_lineage or unknown)");
    }
  }

  /** Whether the engine answered but sleeps. */
  public boolean sleeping() {
    return SLEEPING.equals(notServing);
  }
}
