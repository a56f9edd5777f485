package dev.pointsman.picker.telemetry;

import dev.pointsman.picker.routing.RouteInput;
import dev.pointsman.picker.routing.RouteOutcome;
import dev.pointsman.picker.scheduling.Explanation;
import dev.pointsman.picker.scrape.Signal;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The last N decisions with every scorer's score per candidate: the "why did it go there" view.
 * Thread-safe; bounded. Recording keeps only what the view shows (the request's id and model, the
 * outcome, the scores), never the request itself: a prompt of hundreds of kilobytes is not kept
 * alive by the log, nor the in-flight hold of an endpoint that has since left. The JSON view is
 * built on read.
 */
public final class DecisionLog {
  private static final int MAX_CANDIDATES_SHOWN = 32;

  private final Entry[] ring;
  private final InstantSource clock;
  private final Function<String, Set<Signal>> missing;
  private long next;

  public DecisionLog(int capacity, InstantSource clock) {
    this(capacity, clock, address -> Set.of());
  }

  /**
   * @param missing the signals an endpoint's metrics lack now, shown with each candidate
   */
  public DecisionLog(int capacity, InstantSource clock, Function<String, Set<Signal>> missing) {
    this.ring = new Entry[Math.max(0, capacity)];
    this.clock = clock;
    this.missing = missing;
  }

  public void record(RouteInput input, RouteOutcome outcome, long decisionNanos) {
    if (ring.length == 0) {
      return;
    }
    Entry e =
        switch (outcome) {
          case RouteOutcome.Routed r ->
              new Entry(
                  clock.instant(),
                  input.requestId(),
                  input.body().model(),
                  "routed",
                  r.pool(),
                  r.address(),
                  withoutBlocks(r.picked().explanation()),
                  decisionNanos);
          case RouteOutcome.Rejected j ->
              new Entry(
                  clock.instant(),
                  input.requestId(),
                  input.body().model(),
                  j.reason(),
                  null,
                  null,
                  null,
                  decisionNanos);
        };
    synchronized (this) {
      ring[(int) (next++ % ring.length)] = e;
    }
  }

  /** The explanation less the prompt's block hashes (a long per 64 characters of prompt). */
  private static Explanation withoutBlocks(Explanation e) {
    return new Explanation(
        e.scorers(),
        e.weights(),
        e.candidates(),
        e.scores(),
        e.totals(),
        e.chosen(),
        e.predictedTtft(),
        null);
  }

  /** Newest first. */
  public List<DecisionRecord> recent() {
    List<Entry> entries = new ArrayList<>(ring.length);
    synchronized (this) {
      for (long i = next - 1; i >= 0 && i >= next - ring.length; i--) {
        entries.add(ring[(int) (i % ring.length)]);
      }
    }
    return entries.stream().map(e -> e.view(missing)).toList();
  }

  /** One decision as the view shows it; {@code explanation} null for a refusal. */
  private record Entry(
      Instant at,
      String requestId,
      String model,
      String outcome,
      String pool,
      String address,
      Explanation explanation,
      long nanos) {
    DecisionRecord view(Function<String, Set<Signal>> missing) {
      return new DecisionRecord(
          at.toString(),
          requestId,
          model,
          outcome,
          pool,
          address,
          nanos / 1_000.0,
          explanation == null ? Map.of() : weights(explanation),
          explanation == null ? List.of() : candidates(explanation, missing));
    }
  }

  private static Map<String, Double> weights(Explanation e) {
    Map<String, Double> out = new LinkedHashMap<>();
    for (int s = 0; s < e.scorers().size(); s++) {
      out.put(e.scorers().get(s), e.weights()[s]);
    }
    return out;
  }

  static List<DecisionRecord.CandidateScores> candidates(
      Explanation e, Function<String, Set<Signal>> missing) {
    Integer[] order = new Integer[e.candidates().size()];
    Arrays.setAll(order, i -> i);
    Arrays.sort(order, Comparator.comparingDouble((Integer i) -> -e.totals()[i]));
    List<DecisionRecord.CandidateScores> out = new ArrayList<>();
    for (int k = 0; k < Math.min(order.length, MAX_CANDIDATES_SHOWN); k++) {
      int c = order[k];
      Map<String, Double> scores = new LinkedHashMap<>();
      for (int s = 0; s < e.scorers().size(); s++) {
        scores.put(e.scorers().get(s), round(e.scores()[s][c]));
      }
      String address = e.candidates().get(c);
      List<String> lacking = missing.apply(address).stream().map(Signal::label).sorted().toList();
      out.add(new DecisionRecord.CandidateScores(address, round(e.totals()[c]), scores, lacking));
    }
    return out;
  }

  private static double round(double v) {
    return Math.round(v * 10_000) / 10_000.0;
  }
}
