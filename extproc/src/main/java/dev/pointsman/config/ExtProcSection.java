package dev.pointsman.config;

import dev.pointsman.extproc.BodyMode;
import dev.pointsman.extproc.ExtProcSettings;
import dev.pointsman.inference.request.InferencePaths;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * ext_proc protocol settings. They must match the Envoy filter's {@code processing_mode}. Omitted
 * values take the defaults of the service that reads them (the picker streams full-duplex, the body
 * router buffers).
 *
 * @param requestBodyMode {@code FULL_DUPLEX_STREAMED} or {@code BUFFERED}
 * @param responseBodyMode {@code FULL_DUPLEX_STREAMED}, {@code BUFFERED} or {@code NONE}
 * @param maxBodyBytes request bodies over this get 413
 * @param routedPaths the {@code POST} paths routed to a model server (default {@code
 *     /v1/chat/completions}, {@code /v1/completions}, {@code /v1/embeddings}, {@code
 *     /v1/responses}); every other path gets 404 (see docs/picker.md, "What is routed")
 */
public record ExtProcSection(
    String requestBodyMode, String responseBodyMode, Long maxBodyBytes, List<String> routedPaths) {
  public static final ExtProcSection DEFAULTS = new ExtProcSection(null, null, null, null);

  public ExtProcSection(String requestBodyMode, String responseBodyMode, Long maxBodyBytes) {
    this(requestBodyMode, responseBodyMode, maxBodyBytes, null);
  }

  public ExtProcSection {
    routedPaths = routedPaths == null ? null : InferencePaths.of(routedPaths).routed();
    if (requestBodyMode != null) {
      mode("requestBodyMode", requestBodyMode);
    }
    if (responseBodyMode != null) {
      mode("responseBodyMode", responseBodyMode);
    }
    if (maxBodyBytes != null && maxBodyBytes < 1) {
      throw new IllegalArgumentException("maxBodyBytes: " + maxBodyBytes + " (expected >= 1)");
    }
    if (BodyMode.NONE.name().equalsIgnoreCase(requestBodyMode)) {
      new ExtProcSettings(BodyMode.NONE, BodyMode.NONE, 1, 62_000); // throws with the reason
    }
  }

  /** The settings, with omitted values taken from {@code defaults}. */
  public ExtProcSettings toSettings(ExtProcSettings defaults) {
    return new ExtProcSettings(
        requestBodyMode == null
            ? defaults.requestBodyMode()
            : mode("requestBodyMode", requestBodyMode),
        responseBodyMode == null
            ? defaults.responseBodyMode()
            : mode("responseBodyMode", responseBodyMode),
        maxBodyBytes == null ? defaults.maxBodyBytes() : maxBodyBytes,
        defaults.echoChunkBytes(),
        routedPaths == null ? defaults.paths() : InferencePaths.of(routedPaths));
  }

  private static BodyMode mode(String field, String value) {
    try {
      return BodyMode.valueOf(value.toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          field + ": '" + value + "' (expected one of " + Arrays.toString(BodyMode.values()) + ")",
          e);
    }
  }
}
