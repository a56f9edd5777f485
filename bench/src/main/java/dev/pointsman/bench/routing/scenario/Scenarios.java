package dev.pointsman.bench.routing.scenario;

import dev.pointsman.sim.engine.YamlFiles;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Finds and reads scenario files. A name such as {@code s1} or {@code s1-heterogeneous} resolves to
 * a shipped scenario (from {@code bench/scenarios/}, packaged on the classpath); anything else is a
 * path to a YAML file.
 */
public final class Scenarios {
  /** The shipped scenarios, in order. */
  public static final List<String> SHIPPED =
      List.of("s1-heterogeneous", "s2-bursty", "s3-shared-prefix", "s4-multi-lora", "s5-mixed");

  /** The shipped trace-replay scenarios ({@code bench/scenarios/traces/}), in order. */
  public static final List<String> TRACES =
      List.of(
          "t1-mooncake-heterogeneous",
          "t2-mooncake-homogeneous",
          "t3-azure-heterogeneous",
          "t4-azure-homogeneous",
          "t5-azure-70b");

  private static final String RESOURCE_DIR = "/dev/pointsman/bench/scenarios/";

  private Scenarios() {}

  /** Reads the scenario that {@code nameOrPath} names. */
  public static Scenario load(String nameOrPath) {
    Path path = Path.of(nameOrPath);
    if (Files.isRegularFile(path)) {
      try (InputStream in = Files.newInputStream(path)) {
        return YamlFiles.read(in, Scenario.class, path.toString());
      } catch (IOException e) {
        throw new IllegalArgumentException(path + ": cannot read (" + e.getMessage() + ")", e);
      }
    }
    String shipped = shippedName(nameOrPath);
    String resource =
        RESOURCE_DIR + (TRACES.contains(shipped) ? "traces/" : "") + shipped + ".yaml";
    try (InputStream in = Scenarios.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + resource);
      }
      return YamlFiles.read(in, Scenario.class, shipped + ".yaml");
    } catch (IOException e) {
      throw new IllegalStateException("cannot read shipped scenario " + shipped, e);
    }
  }

  /** Reads a scenario from YAML text; {@code source} names it in error messages. */
  public static Scenario parse(String yaml, String source) {
    return YamlFiles.read(
        new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)), Scenario.class, source);
  }

  private static String shippedName(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    if (n.endsWith(".yaml")) {
      n = n.substring(0, n.length() - 5);
    }
    for (List<String> list : List.of(SHIPPED, TRACES)) {
      for (String s : list) {
        if (s.equals(n) || s.startsWith(n + "-")) {
          return s;
        }
      }
    }
    throw new IllegalArgumentException(
        "--scenario: '"
            + name
            + "' (expected a YAML file, one of s1..s5 "
            + SHIPPED
            + " or one of t1..t5 "
            + TRACES
            + ")");
  }
}
