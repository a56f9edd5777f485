package dev.pointsman.picker.kvevents;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * The vLLM payloads in {@code src/test/resources/kvevents}, written by {@code make_fixtures.py}
 * with msgspec from vLLM's struct declarations (see that script for the commits).
 */
final class Fixtures {
  private Fixtures() {}

  static byte[] payload(String name) {
    try (InputStream in = Fixtures.class.getResourceAsStream("/kvevents/" + name)) {
      return HexFormat.of()
          .parseHex(new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
