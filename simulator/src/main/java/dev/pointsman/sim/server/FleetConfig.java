package dev.pointsman.sim.server;

import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.engine.Imperfections;
import dev.pointsman.sim.engine.YamlFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A fleet file: the pods to simulate. Example:
 *
 * <pre>
 * seed: 1
 * gpuProfiles: my-gpus.yaml    # optional, extends the built-in profiles
 * pods:
 *   - {name: h100-a, gpu: H100-80, port: 8001, adapters: [sql-lora]}
 *   - {name: l4-a, gpu: L4, engine: sglang, faults: {errorRate: 0.1}}
 *   - {name: l4-b, gpu: L4, engine: trtllm}
 *   - {name: h100-b, gpu: H100-80, engineOptions: {dataParallel: 2}}
 * world: {base: realistic}     # optional: step noise, stragglers, restarts (docs/simulator.md)
 * </pre>
 *
 * @param pods the pods, at least one, unique names
 * @param seed seed of sampled output lengths and injected errors
 * @param gpuProfiles optional path of a profile file, relative to the fleet file
 * @param world the pods' imperfections, drawn from {@code seed}; default none (the clean engine)
 */
public record FleetConfig(
    List<PodConfig> pods, Long seed, String gpuProfiles, Imperfections world) {

  /** Validates and copies. */
  public FleetConfig {
    pods = List.copyOf(pods == null ? List.of() : pods);
    seed = seed == null ? 1L : seed;
    world = world == null ? Imperfections.CLEAN : world;
    if (pods.isEmpty()) {
      throw new IllegalArgumentException("pods: empty (expected at least one pod)");
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < pods.size(); i++) {
      if (!names.add(pods.get(i).name())) {
        throw new IllegalArgumentException(
            "pods[" + i + "].name: " + pods.get(i).name() + " (expected a unique name)");
      }
    }
  }

  /** A fleet of clean engines. */
  public FleetConfig(List<PodConfig> pods, Long seed, String gpuProfiles) {
    this(pods, seed, gpuProfiles, null);
  }

  /** Reads and validates {@code file}, including each pod's GPU against the known profiles. */
  public static FleetConfig load(Path file) {
    FleetConfig config;
    try (InputStream in = Files.newInputStream(file)) {
      config = YamlFiles.read(in, FleetConfig.class, file.toString());
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": cannot read (" + e.getMessage() + ")", e);
    }
    config.checkGpus(config.profiles(file.toAbsolutePath().getParent()), file.toString());
    return config;
  }

  /**
   * A copy whose pods listen on {@code base}, {@code base + 1}, ... in file order; 0 gives every
   * pod an ephemeral port.
   */
  public FleetConfig withPortBase(int base) {
    if (base < 0 || base + pods.size() - 1 > 65_535) {
      throw new IllegalArgumentException(
          "--port-base: " + base + " (expected 0, or 1.." + (65_536 - pods.size()) + ")");
    }
    List<PodConfig> moved = new java.util.ArrayList<>();
    for (int i = 0; i < pods.size(); i++) {
      moved.add(pods.get(i).withPort(base == 0 ? 0 : base + i));
    }
    return new FleetConfig(moved, seed, gpuProfiles, world);
  }

  /** The built-in profiles, plus {@link #gpuProfiles} resolved against {@code dir}. */
  public GpuProfiles profiles(Path dir) {
    GpuProfiles builtIn = GpuProfiles.builtIn();
    return gpuProfiles == null ? builtIn : builtIn.withFile(dir.resolve(gpuProfiles));
  }

  /** Checks every pod's GPU type and model shape. */
  public void checkGpus(GpuProfiles profiles, String source) {
    for (int i = 0; i < pods.size(); i++) {
      PodConfig pod = pods.get(i);
      profiles.forEntry(source + ": pods[" + i + "]", pod.gpu(), pod.shape());
    }
  }
}
