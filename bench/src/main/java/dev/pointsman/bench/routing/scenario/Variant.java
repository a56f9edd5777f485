package dev.pointsman.bench.routing.scenario;

import dev.pointsman.sim.engine.Imperfections;
import java.util.List;

/**
 * A variant of a scenario: its name is appended to the scenario's, and each non-null field replaces
 * the scenario's ({@code cleanWorld: true} runs the variant in the clean world). Each variant runs,
 * and is reported, as a scenario of its own. {@code rateReqPerS} is the variant's own rate for the
 * pods-needed suite (variants of one file differ in traffic, so each states its own).
 */
public record Variant(
    String name,
    String description,
    List<PodGroup> fleet,
    List<WorkloadPart> workload,
    LoraMix lora,
    ArrivalSpec arrival,
    List<Double> loads,
    Imperfections world,
    Boolean cleanWorld,
    Double rateReqPerS) {
  public Variant {
    if (name == null || !name.matches("[a-z0-9][a-z0-9.-]*")) {
      throw new IllegalArgumentException(
          "name: '" + name + "' (expected lower-case letters, digits, '.' and '-')");
    }
    fleet = fleet == null ? null : List.copyOf(fleet);
    workload = workload == null ? null : List.copyOf(workload);
    loads = loads == null ? null : List.copyOf(loads);
  }
}
