package dev.pointsman.picker.scrape;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Reads test expositions: written here ({@code src/test/resources/metrics}), or captured from real
 * engines ({@code src/test/resources/engine-captures}, sources in its {@code sources.md}).
 */
final class Resources {

  private Resources() {}

  static String metrics(String file) {
    return read("/metrics/" + file);
  }

  /** A real engine's page, as captured (see {@code engine-captures/sources.md}). */
  static String capture(String file) {
    return read("/engine-captures/" + file);
  }

  private static String read(String path) {
    try (InputStream in = Resources.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalArgumentException("no test resource " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
