package dev.pointsman.picker.summary;

import java.util.List;
import java.util.Objects;

/**
 * One cluster's picker, summarised for the fleet tier: refreshed every {@code intervalMillis} and
 * read by the fleet over mutual TLS ({@link SummaryProtocol}).
 *
 * @param version the summary format ({@link #VERSION}); a reader refuses another
 * @param cluster the cluster's name, as configured ({@code summary.cluster})
 * @param sequence increases with every refresh, from 1
 * @param generatedAtMillis when it was made, on the publisher's wall clock (for people; readers
 *     judge freshness by when they received it, so clocks need not agree)
 * @param intervalMillis how often it is refreshed
 * @param referencePromptTokens the prompt size of the request {@link
 *     PoolSummary#predictedTtftMillis} predicts for
 * @param pools one summary per pool
 */
public record ClusterSummary(
    int version,
    String cluster,
    long sequence,
    long generatedAtMillis,
    long intervalMillis,
    int referencePromptTokens,
    List<PoolSummary> pools) {

  /** The format written and the only one read. */
  public static final int VERSION = 1;

  public ClusterSummary {
    Objects.requireNonNull(cluster, "cluster");
    pools = pools == null ? List.of() : List.copyOf(pools);
  }
}
