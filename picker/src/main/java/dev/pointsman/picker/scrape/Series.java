package dev.pointsman.picker.scrape;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Drops the series of one metric that repeat a value instead of adding to it, so that summing what
 * is left counts each request once:
 *
 * <ul>
 *   <li>a per-priority breakdown next to its total: with priority scheduling SGLang writes the
 *       total under {@code priority=""} and one series per priority; only the total is kept;
 *   <li>tensor-parallel ranks: with metrics for all schedulers every {@code tp_rank} of one
 *       data-parallel rank reports the same numbers; one value (the largest) is kept per group of
 *       series differing only in {@code tp_rank}. Data-parallel ranks ({@code dp_rank}) hold
 *       distinct requests and stay apart, to be summed.
 * </ul>
 *
 * Series with invalid values (NaN, negative, infinite) are dropped too.
 */
final class Series {

  static final String PRIORITY = "priority";
  static final String TP_RANK = "tp_rank";

  private Series() {}

  /** The distinct series of {@code name}, in input order of their groups. */
  static List<Sample> distinct(List<Sample> samples, String name) {
    List<Sample> named = new ArrayList<>();
    boolean total = false;
    boolean breakdown = false;
    for (Sample s : samples) {
      if (s.name().equals(name) && Gauges.valid(s.value())) {
        named.add(s);
        boolean byPriority = !isEmpty(s.label(PRIORITY));
        breakdown |= byPriority;
        total |= !byPriority;
      }
    }
    boolean totalsOnly = total && breakdown;
    Map<Map<String, String>, Sample> byGroup = new LinkedHashMap<>();
    for (Sample s : named) {
      if (totalsOnly && !isEmpty(s.label(PRIORITY))) {
        continue;
      }
      Map<String, String> group = new HashMap<>(s.labels());
      group.remove(TP_RANK);
      byGroup.merge(group, s, (a, b) -> b.value() > a.value() ? b : a);
    }
    return List.copyOf(byGroup.values());
  }

  private static boolean isEmpty(String label) {
    return label == null || label.isEmpty();
  }
}
