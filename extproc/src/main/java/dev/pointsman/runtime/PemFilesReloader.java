package dev.pointsman.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PEM files read again whenever their contents change, and applied by a subclass (a key pair, a CA
 * bundle) for TLS handshakes from then on. Changes are found by comparing the files' contents, not
 * their modification times: Kubernetes updates a Secret volume by swapping the {@code ..data}
 * symlink, which leaves the paths and can leave the times unchanged. Contents the subclass refuses
 * (unreadable, half-written, not matching) keep what is in use, are logged once at WARN and counted
 * once per distinct content; the next check tries again.
 *
 * <p>Thread-safe: {@link #check()} is synchronized, and subclasses publish what they apply
 * atomically.
 */
public abstract sealed class PemFilesReloader implements AutoCloseable
    permits CertificateReloader, TrustReloader {
  private static final Logger LOG = LoggerFactory.getLogger(PemFilesReloader.class);

  /** What one {@link #check()} did. */
  public enum Outcome {
    /** The files hold what is in use. */
    UNCHANGED,
    /** New, valid contents are in use from the next handshake on. */
    RELOADED,
    /** The files changed but hold nothing usable; what was in use stays. */
    REJECTED
  }

  private final List<Map.Entry<String, Path>> files;
  private final AtomicLong reloads = new AtomicLong();
  private final AtomicLong failures = new AtomicLong();
  private byte[] appliedContents;
  private byte[] rejectedContents;
  private ScheduledFuture<?> schedule;

  /**
   * @param files each file with the name errors give it ({@code tls.certChain}), in the order
   *     {@link #apply} gets their contents
   */
  PemFilesReloader(List<Map.Entry<String, Path>> files) {
    this.files = List.copyOf(files);
  }

  /**
   * Applies the files' contents, in the order given; returns what was applied, for the log line.
   *
   * @throws RuntimeException when the contents are not usable; nothing is applied then
   */
  abstract String apply(List<String> contents);

  /**
   * Reads and applies the files once; for the subclass's constructor.
   *
   * @throws UncheckedIOException naming the path when a file cannot be read
   * @throws IllegalArgumentException when the files hold nothing usable
   */
  final void load() {
    List<String> contents = read();
    apply(contents);
    appliedContents = joined(contents);
  }

  /** Contents applied after the first. */
  public long reloads() {
    return reloads.get();
  }

  /** Changed file contents that held nothing usable, each distinct content counted once. */
  public long failures() {
    return failures.get();
  }

  /** Reads the files and applies changed, valid contents. Never throws. */
  public synchronized Outcome check() {
    List<String> contents;
    try {
      contents = read();
    } catch (UncheckedIOException e) {
      return reject(null, e.getMessage());
    }
    byte[] joined = joined(contents);
    if (Arrays.equals(joined, appliedContents)) {
      return Outcome.UNCHANGED;
    }
    if (Arrays.equals(joined, rejectedContents)) {
      return Outcome.REJECTED;
    }
    String applied;
    try {
      applied = apply(contents);
    } catch (RuntimeException e) { // the PEM decoders throw more than IllegalArgumentException
      return reject(joined, e.toString());
    }
    appliedContents = joined;
    rejectedContents = null;
    reloads.incrementAndGet();
    LOG.info("tls: reloaded {} from {}", applied, paths());
    return Outcome.RELOADED;
  }

  /** Checks every {@code period} on {@code executor} until closed. */
  public synchronized void start(ScheduledExecutorService executor, Duration period) {
    if (schedule != null) {
      throw new IllegalStateException("tls reloader: already started (expected once)");
    }
    long nanos = period.toNanos();
    schedule = executor.scheduleWithFixedDelay(this::check, nanos, nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public synchronized void close() {
    if (schedule != null) {
      schedule.cancel(false);
    }
  }

  private Outcome reject(byte[] contents, String why) {
    if (contents == null || !Arrays.equals(contents, rejectedContents)) {
      rejectedContents = contents;
      failures.incrementAndGet();
      LOG.warn("tls: new contents of {} not used, keeping the previous: {}", paths(), why);
    }
    return Outcome.REJECTED;
  }

  private List<Path> paths() {
    return files.stream().map(Map.Entry::getValue).toList();
  }

  private List<String> read() {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, Path> file : files) {
      try {
        out.add(Files.readString(file.getValue()));
      } catch (IOException e) {
        throw new UncheckedIOException(
            file.getKey() + ": cannot read " + file.getValue() + " (" + e + ")", e);
      }
    }
    return out;
  }

  private static byte[] joined(List<String> contents) {
    return String.join("\u0000", contents).getBytes(StandardCharsets.UTF_8);
  }
}
