package dev.pointsman.picker.recording;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Lines appended to a file that rotates by size: when a line would take the file past {@code
 * maxBytes}, the file becomes {@code name.1.ext} (the older ones shift up, the oldest beyond {@code
 * maxFiles} is deleted) and a new one starts. A file exceeds the bound only when one line alone
 * does. A file left by an earlier run is rotated away at open, so each file holds one recording.
 * Not thread-safe: one writer thread owns it.
 */
final class RotatingFile implements AutoCloseable {
  private final Path path;
  private final long maxBytes;
  private final int maxFiles;
  private BufferedWriter out;
  private long size;

  RotatingFile(Path path, long maxBytes, int maxFiles) throws IOException {
    this.path = path;
    this.maxBytes = maxBytes;
    this.maxFiles = maxFiles;
    Path parent = path.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    if (Files.exists(path) && Files.size(path) > 0) {
      rotate();
    }
    open();
  }

  /** The name of the {@code i}-th older file: {@code traffic.jsonl} → {@code traffic.2.jsonl}. */
  static Path rotated(Path path, int i) {
    String name = path.getFileName().toString();
    int dot = name.lastIndexOf('.');
    String rotated =
        dot <= 0 ? name + "." + i : name.substring(0, dot) + "." + i + name.substring(dot);
    return path.resolveSibling(rotated);
  }

  /** Appends one line (a newline is added). */
  void write(String line) throws IOException {
    long bytes = line.getBytes(StandardCharsets.UTF_8).length + 1L;
    if (size > 0 && size + bytes > maxBytes) {
      out.close();
      rotate();
      open();
    }
    out.write(line);
    out.write('\n');
    size += bytes;
  }

  void flush() throws IOException {
    out.flush();
  }

  private void open() throws IOException {
    out =
        Files.newBufferedWriter(
            path,
            StandardCharsets.UTF_8,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE);
    size = 0;
  }

  private void rotate() throws IOException {
    if (maxFiles == 1) {
      Files.deleteIfExists(path);
      return;
    }
    Files.deleteIfExists(rotated(path, maxFiles - 1));
    for (int i = maxFiles - 2; i >= 1; i--) {
      Path from = rotated(path, i);
      if (Files.exists(from)) {
        Files.move(from, rotated(path, i + 1), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    Files.move(path, rotated(path, 1), StandardCopyOption.REPLACE_EXISTING);
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
