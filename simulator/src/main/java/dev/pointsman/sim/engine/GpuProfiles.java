package dev.pointsman.sim.engine;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A named set of {@link GpuProfile}s, built from the {@code gpu-profiles.yaml} resource: GPU spec
 * sheets, model shapes, fits of the linear operations to measured kernel times, shared engine
 * constants and the profiles to build. User files of the same shape extend or override entries of
 * each list (GPUs and models by name, fits by GPU, model and degree, profiles by GPU and model).
 */
public final class GpuProfiles {
  /** The model shape of a profile looked up by GPU type alone. */
  public static final String DEFAULT_MODEL = "llama-3-8b";

  private static final String RESOURCE = "/dev/pointsman/sim/gpu-profiles.yaml";

  /** The YAML document shape; every list may be omitted in a user file. */
  record Document(
      List<GpuSpec> gpus,
      List<ModelShape> models,
      List<LinearFit> fits,
      EngineDefaults engine,
      List<ProfileSpec> profiles) {
    Document {
      gpus = copy(gpus);
      models = copy(models);
      fits = copy(fits);
      profiles = copy(profiles);
    }

    private static <T> List<T> copy(List<T> list) {
      return List.copyOf(list == null ? List.of() : list);
    }
  }

  private final Document document;
  private final Derivation derivation;
  private final Map<String, GpuProfile> byKey;

  private GpuProfiles(Document document) {
    if (document.engine() == null) {
      throw new IllegalArgumentException("engine: null (expected the shared engine constants)");
    }
    this.document = document;
    this.derivation =
        new Derivation(
            index(document.gpus(), GpuSpec::name),
            index(document.models(), ModelShape::name),
            document.fits(),
            document.engine());
    Map<String, GpuProfile> map = new LinkedHashMap<>();
    for (ProfileSpec p : document.profiles()) {
      map.put(p.key(), derivation.profile(p));
    }
    this.byKey = Map.copyOf(map);
  }

  /** The built-in profiles (see {@code docs/simulator.md}). */
  public static GpuProfiles builtIn() {
    try (InputStream in = GpuProfiles.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + RESOURCE);
      }
      return new GpuProfiles(YamlFiles.read(in, Document.class, RESOURCE));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + RESOURCE, e);
    }
  }

  /** These entries plus those of {@code file}, which win on equal keys. */
  public GpuProfiles withFile(Path file) {
    Document user;
    try (InputStream in = Files.newInputStream(file)) {
      user = YamlFiles.read(in, Document.class, file.toString());
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": cannot read (" + e.getMessage() + ")", e);
    }
    try {
      return new GpuProfiles(
          new Document(
              merge(document.gpus(), user.gpus(), GpuSpec::name),
              merge(document.models(), user.models(), ModelShape::name),
              merge(
                  document.fits(),
                  user.fits(),
                  f -> f.gpu() + "/" + f.model() + "/" + f.tensorParallel()),
              user.engine() == null ? document.engine() : user.engine(),
              merge(document.profiles(), user.profiles(), ProfileSpec::key)));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
    }
  }

  /** The {@link #DEFAULT_MODEL} profile of GPU type {@code gpu}, or an exception naming them. */
  public GpuProfile get(String gpu) {
    if (!byKey.containsKey(gpu + "/" + DEFAULT_MODEL)) {
      throw new IllegalArgumentException(gpu + " (expected one of " + names() + ")");
    }
    return get(gpu, DEFAULT_MODEL);
  }

  /** The profile of {@code model} on {@code gpu}, or an exception naming the known pairs. */
  public GpuProfile get(String gpu, String model) {
    GpuProfile p = byKey.get(gpu + "/" + model);
    if (p == null) {
      throw new IllegalArgumentException(
          gpu + "/" + model + " (expected one of " + new TreeSet<>(byKey.keySet()) + ")");
    }
    return p;
  }

  /**
   * The profile a config entry at {@code path} (e.g. {@code pods[3]}) names by GPU type and model
   * shape; an error names {@code path.gpu} for an unknown GPU type, else {@code path.shape}.
   */
  public GpuProfile forEntry(String path, String gpu, String shape) {
    if (byKey.keySet().stream().noneMatch(k -> k.startsWith(gpu + "/"))) {
      throw new IllegalArgumentException(
          path + ".gpu: " + gpu + " (expected one of " + names() + ")");
    }
    try {
      return get(gpu, shape);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(path + ".shape: " + e.getMessage(), e);
    }
  }

  /** GPU types with a {@link #DEFAULT_MODEL} profile, sorted. */
  public Set<String> names() {
    Set<String> names = new TreeSet<>();
    for (GpuProfile p : byKey.values()) {
      if (p.model().equals(DEFAULT_MODEL)) {
        names.add(p.name());
      }
    }
    return names;
  }

  /** Every profile's {@code gpu/model} key, sorted. */
  public Set<String> keys() {
    return new TreeSet<>(byKey.keySet());
  }

  /** The fits of the linear operations to measured rows, as read. */
  public List<LinearFit> fits() {
    return document.fits();
  }

  /** The efficiency the derivation uses for {@code gpu}. */
  public Efficiency efficiency(String gpu) {
    return derivation.efficiency(gpu);
  }

  /** The GPU spec sheet called {@code name}. */
  public GpuSpec gpu(String name) {
    return find(document.gpus(), GpuSpec::name, name, "gpu");
  }

  /** The model shape called {@code name}. */
  public ModelShape model(String name) {
    return find(document.models(), ModelShape::name, name, "model");
  }

  private static <T> T find(List<T> list, Function<T, String> key, String name, String what) {
    Map<String, T> map = index(list, key);
    T t = map.get(name);
    if (t == null) {
      throw new IllegalArgumentException(
          what + ": " + name + " (expected one of " + new TreeSet<>(map.keySet()) + ")");
    }
    return t;
  }

  private static <T> Map<String, T> index(List<T> list, Function<T, String> key) {
    Map<String, T> map = new LinkedHashMap<>();
    for (T t : list) {
      map.put(key.apply(t), t);
    }
    return map;
  }

  private static <T> List<T> merge(List<T> base, List<T> extra, Function<T, String> key) {
    Map<String, T> map = index(base, key);
    map.putAll(index(extra, key));
    return new ArrayList<>(map.values());
  }
}
