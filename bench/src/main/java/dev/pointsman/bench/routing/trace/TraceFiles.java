package dev.pointsman.bench.routing.trace;

import dev.pointsman.bench.routing.scenario.TraceSpec;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPInputStream;

/**
 * Opens trace files: a path (plain or gzip), else a trace shipped with the bench (the public traces
 * of {@code bench/src/main/resources/dev/pointsman/bench/traces/}, see its README). Files are
 * streamed line by line into a compact {@link Trace}; each is read once per process and shared by
 * every run (at most a few traces per bench, so the cache stays small). Thread-safe.
 */
public final class TraceFiles {
  /** The traces shipped with the bench, by name. */
  public static final List<String> SHIPPED =
      List.of("mooncake-conversation-first-30min.jsonl", "azure-llm-2023-conv.csv");

  private static final String RESOURCE_DIR = "/dev/pointsman/bench/traces/";
  private static final Map<String, Trace> CACHE = new ConcurrentHashMap<>();

  private TraceFiles() {}

  /** The trace {@code spec} names, read once. */
  public static Trace load(TraceSpec spec) {
    Path path = Path.of(spec.file());
    String key =
        (Files.isRegularFile(path) ? path.toAbsolutePath().normalize() : "shipped:" + spec.file())
            + "|"
            + spec.format()
            + "|"
            + spec.blockTokens();
    return CACHE.computeIfAbsent(key, k -> read(spec, path));
  }

  private static Trace read(TraceSpec spec, Path path) {
    try (InputStream raw = open(spec.file(), path)) {
      InputStream in = new BufferedInputStream(raw);
      in.mark(2);
      boolean gzip = in.read() == 0x1f && in.read() == 0x8b;
      in.reset();
      BufferedReader reader =
          new BufferedReader(
              new InputStreamReader(gzip ? new GZIPInputStream(in) : in, StandardCharsets.UTF_8));
      TraceFormat format =
          spec.format() != null
              ? TraceFormat.of(spec.format())
              : TraceFormat.detect(spec.file(), firstLine(reader));
      Trace.Builder builder = new Trace.Builder(spec.file(), format.id(), spec.blockTokens());
      format.read(reader, builder, spec.file());
      Trace trace = builder.build();
      if (trace.size() < 2 || !(trace.spanMs() > 0)) {
        throw new IllegalArgumentException(
            spec.file()
                + ": "
                + trace.size()
                + " requests over "
                + trace.spanMs()
                + " ms (expected at least 2 requests at different times)");
      }
      return trace;
    } catch (IOException e) {
      throw new IllegalArgumentException(spec.file() + ": cannot read (" + e.getMessage() + ")", e);
    }
  }

  private static InputStream open(String name, Path path) throws IOException {
    if (Files.isRegularFile(path)) {
      return Files.newInputStream(path);
    }
    String base = name.endsWith(".gz") ? name.substring(0, name.length() - 3) : name;
    if (SHIPPED.contains(base)) {
      InputStream in = TraceFiles.class.getResourceAsStream(RESOURCE_DIR + base + ".gz");
      if (in == null) {
        throw new IllegalStateException("missing resource " + RESOURCE_DIR + base + ".gz");
      }
      return in;
    }
    throw new IllegalArgumentException(
        name
            + ": no such file (expected a Mooncake JSONL or Azure CSV trace file, or a shipped"
            + " trace: "
            + SHIPPED
            + ")");
  }

  /** The first non-blank line, leaving the reader where it was. */
  private static String firstLine(BufferedReader reader) throws IOException {
    reader.mark(1 << 20);
    String line;
    while ((line = reader.readLine()) != null && line.isBlank()) {
      // skip
    }
    reader.reset();
    return line;
  }
}
