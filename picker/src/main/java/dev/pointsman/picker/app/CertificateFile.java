package dev.pointsman.picker.app;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes a listener's self-signed certificate (the public part only; the key never leaves memory)
 * where a local client can trust it: the picker's, and the fleet tier's. Written to a temporary
 * file and moved into place, so a gateway starting at the same moment reads either the old
 * certificate or the new one, never half.
 */
public final class CertificateFile {
  private CertificateFile() {}

  /** Writes {@code pem} to {@code file}, creating its folder; returns the file. */
  public static Path write(Path file, String pem) {
    try {
      Path dir = file.toAbsolutePath().getParent();
      Files.createDirectories(dir);
      Path tmp = Files.createTempFile(dir, ".picker", ".pem.tmp");
      Files.writeString(tmp, pem, StandardCharsets.US_ASCII);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "--certificate-out: cannot write " + file + " (" + e.getMessage() + ")", e);
    }
  }
}
