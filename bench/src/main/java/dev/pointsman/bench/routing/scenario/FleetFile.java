package dev.pointsman.bench.routing.scenario;

import dev.pointsman.sim.engine.YamlFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The fleet a trace is replayed on ({@code pointsman bench --trace FILE --fleet FILE}), as an
 * operator writes it:
 *
 * <pre>
 * model: meta-llama/Llama-3.1-8B-Instruct   # optional
 * contextTokens: 32768                       # optional: the served max_model_len
 * pools:
 *   - {gpu: H100-80, count: 2}
 *   - {gpu: L4, count: 4}
 * </pre>
 *
 * @param model the model every pool serves (default: the bench's)
 * @param contextTokens the served context length, or null for the default ({@code ServedContext})
 * @param pools pools of identical pods: GPU profile name and count (and optionally {@code
 *     maxLoras}, {@code maxCpuLoras})
 */
public record FleetFile(String model, Integer contextTokens, List<PodGroup> pools) {
  /** The fleet used when none is given: S1's mixed fleet. */
  public static final FleetFile DEFAULT =
      new FleetFile(
          null,
          null,
          List.of(
              new PodGroup("H100-80", 2, null, null, null),
              new PodGroup("A100-80", 2, null, null, null),
              new PodGroup("L4", 4, null, null, null)));

  public FleetFile {
    pools = List.copyOf(Check.required("pools", pools));
    if (pools.isEmpty()) {
      throw new IllegalArgumentException("pools: [] (expected at least one pool)");
    }
    if (contextTokens != null) {
      Check.atLeast("contextTokens", contextTokens, 0, 256);
    }
  }

  /** Reads a fleet file. */
  public static FleetFile read(Path path) {
    if (!Files.isRegularFile(path)) {
      throw new IllegalArgumentException(
          "--fleet: " + path + ": no such file (expected a fleet YAML with 'pools:')");
    }
    try (InputStream in = Files.newInputStream(path)) {
      return YamlFiles.read(in, FleetFile.class, path.toString());
    } catch (IOException e) {
      throw new IllegalArgumentException(path + ": cannot read (" + e.getMessage() + ")", e);
    }
  }
}
