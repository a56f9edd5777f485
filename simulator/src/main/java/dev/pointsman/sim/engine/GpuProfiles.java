package dev.pointsman.sim.engine;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A named set of {@link GpuProfile}s: the built-in ones from the {@code gpu-profiles.yaml}
 * resource, optionally extended or overridden by user files of the same shape ({@code profiles:} a
 * list of profiles).
 */
public final class GpuProfiles {
  private static final String RESOURCE = "/dev/pointsman/sim/gpu-profiles.yaml";

  /** The YAML document shape. */
  record Document(List<GpuProfile> profiles) {
    Document {
      profiles = List.copyOf(profiles == null ? List.of() : profiles);
    }
  }

  private final Map<String, GpuProfile> byName;

  private GpuProfiles(Map<String, GpuProfile> byName) {
    this.byName = Map.copyOf(byName);
  }

  /** The built-in profiles: H100-80, A100-80, A100-40, A10G, L4. */
  public static GpuProfiles builtIn() {
    try (InputStream in = GpuProfiles.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + RESOURCE);
      }
      return new GpuProfiles(index(YamlFiles.read(in, Document.class, RESOURCE)));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + RESOURCE, e);
    }
  }

  /** These profiles plus those of {@code file}, which win on equal names. */
  public GpuProfiles withFile(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      Map<String, GpuProfile> merged = new LinkedHashMap<>(byName);
      merged.putAll(index(YamlFiles.read(in, Document.class, file.toString())));
      return new GpuProfiles(merged);
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": cannot read (" + e.getMessage() + ")", e);
    }
  }

  /** The profile called {@code name}, or an exception naming the known ones. */
  public GpuProfile get(String name) {
    GpuProfile p = byName.get(name);
    if (p == null) {
      throw new IllegalArgumentException(
          name + " (expected one of " + new java.util.TreeSet<>(byName.keySet()) + ")");
    }
    return p;
  }

  /** Known profile names. */
  public Set<String> names() {
    return byName.keySet();
  }

  private static Map<String, GpuProfile> index(Document doc) {
    Map<String, GpuProfile> map = new LinkedHashMap<>();
    for (GpuProfile p : doc.profiles()) {
      map.put(p.name(), p);
    }
    return map;
  }
}
