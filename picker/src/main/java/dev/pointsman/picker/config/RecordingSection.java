package dev.pointsman.picker.config;

import java.nio.file.Path;

/**
 * The traffic recorder (off by default): one line per routed request in the Mooncake JSONL format
 * the benchmark replays, with lengths, model, adapter, tenant and salted prefix-block hashes, never
 * any text. See docs/rollout.md.
 *
 * @param enabled record (default false)
 * @param file the file written; rotated files take {@code .1}, {@code .2}, … after its name
 *     (default {@code pointsman-traffic.jsonl})
 * @param maxBytes bytes per file before it rotates (default 64 MiB)
 * @param maxFiles files kept, the one being written included (default 4)
 * @param queueCapacity lines waiting for the writer thread at most; more are dropped and counted
 *     (default 8192)
 * @param salt the salt of the prefix-block hashes, or null: a random salt created at first start in
 *     {@code <file>.salt} and reused after. Equal prompts give equal ids only under one salt
 * @param tenantHeader the request header naming the tenant (e.g. {@code
 *     x-gateway-inference-fairness-id}), or null to record none
 */
public record RecordingSection(
    Boolean enabled,
    String file,
    Long maxBytes,
    Integer maxFiles,
    Integer queueCapacity,
    String salt,
    String tenantHeader) {
  public static final RecordingSection DEFAULTS =
      new RecordingSection(null, null, null, null, null, null, null);

  public RecordingSection {
    enabled = enabled != null && enabled;
    file = file == null ? "pointsman-traffic.jsonl" : file;
    maxBytes = maxBytes == null ? 64L << 20 : maxBytes;
    maxFiles = maxFiles == null ? 4 : maxFiles;
    queueCapacity = queueCapacity == null ? 8192 : queueCapacity;
    if (file.isBlank()) {
      throw new IllegalArgumentException("file: '' (expected a file path)");
    }
    if (maxBytes < 1) {
      throw new IllegalArgumentException("maxBytes: " + maxBytes + " (expected >= 1)");
    }
    if (maxFiles < 1 || maxFiles > 1000) {
      throw new IllegalArgumentException("maxFiles: " + maxFiles + " (expected 1..1000)");
    }
    if (queueCapacity < 1 || queueCapacity > 1_000_000) {
      throw new IllegalArgumentException(
          "queueCapacity: " + queueCapacity + " (expected 1..1000000)");
    }
    if (salt != null && salt.isEmpty()) {
      throw new IllegalArgumentException("salt: '' (expected a secret string, or leave it out)");
    }
    if (tenantHeader != null) {
      if (tenantHeader.isBlank()) {
        throw new IllegalArgumentException(
            "tenantHeader: '' (expected a header name, or leave it out)");
      }
      tenantHeader = tenantHeader.toLowerCase(java.util.Locale.ROOT);
    }
  }

  public Path path() {
    return Path.of(file);
  }
}
