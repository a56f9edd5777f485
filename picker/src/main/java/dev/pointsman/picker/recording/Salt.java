package dev.pointsman.picker.recording;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HexFormat;
import java.util.random.RandomGenerator;

/** The installation's salt: configured, or created once beside the recording and reused. */
public final class Salt {
  private Salt() {}

  /** The file holding the generated salt of {@code recording}. */
  public static Path fileFor(Path recording) {
    return recording.resolveSibling(recording.getFileName() + ".salt");
  }

  /**
   * {@code configured} when not null; else the salt in {@code file}, created there with 32 bytes of
   * {@code random} when it does not exist yet.
   */
  public static byte[] load(String configured, Path file, RandomGenerator random) {
    if (configured != null) {
      return configured.getBytes(StandardCharsets.UTF_8);
    }
    try {
      if (Files.exists(file)) {
        return read(file);
      }
      byte[] salt = new byte[32];
      random.nextBytes(salt);
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      try {
        Files.writeString(
            file, HexFormat.of().formatHex(salt) + "\n", StandardOpenOption.CREATE_NEW);
      } catch (FileAlreadyExistsException raced) {
        return read(file);
      }
      return salt;
    } catch (IOException e) {
      throw new UncheckedIOException(file + ": cannot read or create the recording salt", e);
    }
  }

  private static byte[] read(Path file) throws IOException {
    String hex = Files.readString(file).strip();
    try {
      byte[] salt = HexFormat.of().parseHex(hex);
      if (salt.length == 0) {
        throw new IllegalArgumentException("empty");
      }
      return salt;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          file + ": not a salt (expected hexadecimal bytes, as the picker writes it)", e);
    }
  }
}
