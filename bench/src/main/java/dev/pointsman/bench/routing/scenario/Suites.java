package dev.pointsman.bench.routing.scenario;

import dev.pointsman.bench.routing.policy.MismatchPriors;
import dev.pointsman.sim.engine.YamlFiles;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Named suites: a set of shipped scenarios and the policies to compare on them, run by {@code
 * pointsman bench --suite NAME}.
 */
public final class Suites {
  /** The suites, by name. */
  public static final List<String> NAMES = List.of("mismatch");

  private static final String RESOURCE_DIR = "/dev/pointsman/bench/scenarios/";

  private Suites() {}

  /** The scenarios of {@code suite}. */
  public static List<Scenario> scenarios(String suite) {
    check(suite);
    return List.of(read("mismatch/m1-heterogeneous"));
  }

  /**
   * The policies of {@code suite}: round-robin for scale, {@code pointsman} with its built-in
   * prior, then every wrong-prior variant.
   */
  public static List<String> policies(String suite) {
    check(suite);
    List<String> out = new ArrayList<>(List.of("round-robin", "pointsman"));
    out.addAll(MismatchPriors.NAMES);
    return out;
  }

  private static void check(String suite) {
    if (!NAMES.contains(suite)) {
      throw new IllegalArgumentException(
          "--suite: '" + suite + "' (expected one of " + NAMES + ")");
    }
  }

  private static Scenario read(String name) {
    try (InputStream in = Suites.class.getResourceAsStream(RESOURCE_DIR + name + ".yaml")) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + RESOURCE_DIR + name + ".yaml");
      }
      return YamlFiles.read(in, Scenario.class, name + ".yaml");
    } catch (IOException e) {
      throw new IllegalStateException("cannot read suite scenario " + name, e);
    }
  }
}
