package dev.pointsman.picker.scheduling;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** Removes candidates that must not serve a request. Returns the survivors, in order. */
public interface Filter {

  /** The kebab-case plugin type name. */
  String type();

  List<Candidate> filter(SchedulingRequest request, List<Candidate> candidates, CycleState context);

  /**
   * The candidates that pass {@code test}, or all of them when none does: a filter narrows the
   * choice to the good endpoints but never leaves a request with nowhere to go.
   */
  static List<Candidate> keepIfAny(List<Candidate> candidates, Predicate<Candidate> test) {
    List<Candidate> kept = new ArrayList<>(candidates.size());
    for (Candidate c : candidates) {
      if (test.test(c)) {
        kept.add(c);
      }
    }
    return kept.isEmpty() ? candidates : kept;
  }
}
