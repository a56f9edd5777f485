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
 * Thread-safe; bounded. Recording copies only references; the JSON view is built on read.
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
    Entry e = new Entry(clock.instant(), input, outcome, decisionNanos);
    synchronized (this) {
      ring[(int) (next++ % ring.length)] = e;
    }
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

  private record Entry(Instant at, RouteInput input, RouteOutcome outcome, long nanos) {
    DecisionRecord view(Function<String, Set<Signal>> missing) {
      double micros = nanos / 1_000.0;
      return switch (outcome) {
        case RouteOutcome.Routed r ->
            new DecisionRecord(
                at.toString(),
                input.requestId(),
                input.body().model(),
                "routed",
                r.pool(),
                r.picked().address(),
                micros,
                weights(r.picked().explanation()),
                candidates(r.picked().explanation(), missing));
        case RouteOutcome.Rejected j ->
            new DecisionRecord(
                at.toString(),
                input.requestId(),
                input.body().model(),
                j.reason(),
                null,
                null,
                micros,
                Map.of(),
                List.of());
      };
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
