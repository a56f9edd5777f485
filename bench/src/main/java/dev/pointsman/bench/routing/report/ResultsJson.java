package dev.pointsman.bench.routing.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.pointsman.bench.routing.run.ScenarioResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes {@code results.json}; NaN (no sample) is written as null. */
public final class ResultsJson {
  private static final ObjectMapper MAPPER =
      JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

  private ResultsJson() {}

  public static void write(ScenarioResult result, Path file) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      String json = MAPPER.writeValueAsString(result);
      json = json.replace("\"NaN\"", "null").replace("\"Infinity\"", "null");
      Files.writeString(file, json + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  /** Reads a results file back as a tree (for tests and tools). */
  public static com.fasterxml.jackson.databind.JsonNode read(Path file) {
    try {
      return MAPPER.readTree(file.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
