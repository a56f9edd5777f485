package dev.pointsman.picker.scheduling;

import java.util.List;

/** Removes candidates that must not serve a request. Returns the survivors, in order. */
public interface Filter {

  /** The kebab-case plugin type name. */
  String type();

  List<Candidate> filter(SchedulingRequest request, List<Candidate> candidates, CycleState context);
}
