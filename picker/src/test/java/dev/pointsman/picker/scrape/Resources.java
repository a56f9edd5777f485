package dev.pointsman.picker.scrape;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Reads test expositions from {@code src/test/resources/metrics}. */
final class Resources {

  private Resources() {}

  static String metrics(String file) {
    try (InputStream in = Resources.class.getResourceAsStream("/metrics/" + file)) {
      if (in == null) {
        throw new IllegalArgumentException("no test resource /metrics/" + file);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
