package dev.pointsman.bench.routing.suite;

import java.util.Map;
import java.util.TreeMap;

/** The bench's suites by name; a new suite is one more entry here. */
public final class Suites {
  private static final Map<String, Suite> ALL =
      new TreeMap<>(
          Map.of(
              "replicas",
              new ReplicaSuite(),
              "mismatch",
              new MismatchSuite(),
              "ablations",
              new AblationSuite(),
              "pods-needed",
              new PodsNeededSuite(),
              "knee-latency",
              new KneeLatencySuite()));

  private Suites() {}

  /** The suite called {@code name}. */
  public static Suite get(String name) {
    Suite s = ALL.get(name);
    if (s == null) {
      throw new IllegalArgumentException(
          "--suite: '" + name + "' (expected one of " + names() + ")");
    }
    return s;
  }

  /** Every suite's name, sorted. */
  public static java.util.Set<String> names() {
    return ALL.keySet();
  }
}
