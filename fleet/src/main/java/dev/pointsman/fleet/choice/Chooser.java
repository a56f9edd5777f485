package dev.pointsman.fleet.choice;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The fleet tier's rule, pure (no clock, no randomness of its own, no I/O): one request, the
 * clusters as it sees them, its SLO, whether it is sheddable and a uniform draw in [0, 1).
 *
 * <ol>
 *   <li>A cluster is open when it is not drained (share above 0) and predicts a time to first
 *       token. Sheddable traffic never goes to an on-demand cluster.
 *   <li>Affinity: among open clusters predicted within the SLO, the one advertising the deepest
 *       match of the request's prefix as hot (ties: cheaper, then faster). "Within" is the time to
 *       first token and, when the request has a time-per-output-token objective, the cluster's
 *       predicted TPOT too: a cheap cluster is not filled past the decode speed it promises.
 *   <li>Otherwise cost: the cheapest cluster predicted within {@code spillAt} × the SLO (ties:
 *       faster). A cheaper cluster fills until its prediction reaches that mark, and traffic spills
 *       to the next dearer one before the SLO itself breaks.
 *   <li>None so comfortable: the fastest within the SLO; none within it: the fastest.
 * </ol>
 *
 * A cluster ramping back up (share below 1) takes the request only when the draw is below its
 * share; otherwise the request goes on down the order (the rest of that rule's clusters, then the
 * next rule's). When every open cluster declines, the first in order takes it.
 *
 * <p>The choice also names up to {@code fallbacks} other clusters, the next ones down the same
 * order (each once, ramping ones included, drained ones never, and for sheddable traffic never an
 * on-demand one), those known to run in another region than the chosen one first: where the data
 * plane resends a request the chosen cluster refused before it started, which a region going away
 * must not take with it.
 */
public final class Chooser {
  /** The most fallbacks a choice may name. */
  public static final int MAX_FALLBACKS = 3;

  private static final Comparator<Option> CHEAPER =
      Comparator.comparingDouble(Option::pricePerGpuHour)
          .thenComparingDouble(Option::predictedTtftMillis);
  private static final Comparator<Option> FASTER =
      Comparator.comparingDouble(Option::predictedTtftMillis)
          .thenComparingDouble(Option::pricePerGpuHour);
  private static final Comparator<Option> DEEPER =
      Comparator.comparingInt(Option::prefixDepth).reversed().thenComparing(CHEAPER);

  private final double spillAt;
  private final int fallbacks;

  /** A chooser that names no fallbacks. */
  public Chooser(double spillAt) {
    this(spillAt, 0);
  }

  /**
   * @param spillAt the fraction of the SLO a cheaper cluster's prediction may reach before traffic
   *     spills to a dearer one, in (0, 1]
   * @param fallbacks how many further clusters each choice names, at most, for a request the chosen
   *     one refuses before it starts (0..{@value #MAX_FALLBACKS})
   */
  public Chooser(double spillAt, int fallbacks) {
    if (!(spillAt > 0 && spillAt <= 1)) {
      throw new IllegalArgumentException("spillAt: " + spillAt + " (expected in (0, 1])");
    }
    if (fallbacks < 0 || fallbacks > MAX_FALLBACKS) {
      throw new IllegalArgumentException(
          "fallbacks: " + fallbacks + " (expected 0.." + MAX_FALLBACKS + ")");
    }
    this.spillAt = spillAt;
    this.fallbacks = fallbacks;
  }

  /**
   * Chooses a cluster for one request.
   *
   * @param options every configured cluster as the request sees it
   * @param sloMillis the request's time-to-first-token objective
   * @param sheddable whether the request may be shed (it never goes to on-demand)
   * @param draw uniform in [0, 1), for clusters ramping back up
   */
  public Choice choose(List<Option> options, double sloMillis, boolean sheddable, double draw) {
    return choose(options, sloMillis, Double.NaN, sheddable, draw);
  }

  /**
   * Chooses a cluster for one request with a time-per-output-token objective too.
   *
   * @param tpotSloMillis the request's TPOT objective, or NaN for none
   */
  public Choice choose(
      List<Option> options,
      double sloMillis,
      double tpotSloMillis,
      boolean sheddable,
      double draw) {
    List<Option> open = new ArrayList<>();
    boolean onDemandRefused = false;
    for (Option o : options) {
      if (!o.open()) {
        continue;
      }
      if (sheddable && o.tier() == Tier.ON_DEMAND) {
        onDemandRefused = true;
        continue;
      }
      open.add(o);
    }
    if (open.isEmpty()) {
      return new Choice.NoCluster(onDemandRefused);
    }
    List<Option> within = within(open, 1, sloMillis, tpotSloMillis);
    List<Stage> stages =
        List.of(
            new Stage(
                within.stream().filter(o -> o.prefixDepth() > 0).sorted(DEEPER).toList(),
                Choice.Reason.AFFINITY),
            new Stage(
                within(open, spillAt, sloMillis, tpotSloMillis).stream().sorted(CHEAPER).toList(),
                Choice.Reason.CHEAPEST),
            new Stage(within.stream().sorted(FASTER).toList(), Choice.Reason.FASTEST_WITHIN_SLO),
            new Stage(open.stream().sorted(FASTER).toList(), Choice.Reason.FASTEST_OVER_SLO));
    Option chosen = null;
    Choice.Reason reason = null;
    Option first = null;
    Choice.Reason firstReason = null;
    List<Option> order = new ArrayList<>(open.size());
    for (Stage stage : stages) {
      for (Option o : stage.options()) {
        if (!order.contains(o)) {
          order.add(o);
        }
        if (chosen == null && draw < o.share()) {
          chosen = o;
          reason = stage.reason();
        }
        if (first == null) {
          first = o;
          firstReason = stage.reason();
        }
      }
    }
    if (chosen == null) { // every open cluster is ramping and declined: the first in order takes it
      chosen = first;
      reason = firstReason;
    }
    order.remove(chosen);
    List<Option> fallbackOrder = new ArrayList<>(order.size());
    for (Option o : order) {
      if (o.elsewhereThan(chosen)) {
        fallbackOrder.add(o);
      }
    }
    for (Option o : order) {
      if (!o.elsewhereThan(chosen)) {
        fallbackOrder.add(o);
      }
    }
    return new Choice.Chosen(
        chosen, reason, fallbackOrder.subList(0, Math.min(fallbacks, fallbackOrder.size())));
  }

  /** Clusters in the order one rule prefers them, and the reason that rule gives. */
  private record Stage(List<Option> options, Choice.Reason reason) {}

  private static List<Option> within(
      List<Option> open, double factor, double sloMillis, double tpotSloMillis) {
    return open.stream().filter(o -> o.within(factor, sloMillis, tpotSloMillis)).toList();
  }
}
