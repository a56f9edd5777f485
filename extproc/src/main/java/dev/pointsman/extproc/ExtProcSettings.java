package dev.pointsman.extproc;

import dev.pointsman.inference.request.InferencePaths;
import java.util.Objects;

/**
 * The ext_proc service's settings.
 *
 * @param requestBodyMode how request bodies arrive (must match Envoy's filter config)
 * @param responseBodyMode how response bodies arrive
 * @param maxBodyBytes request bodies over this are refused with 413
 * @param echoChunkBytes largest echoed body chunk (Envoy's limit is about 64 KiB)
 * @param paths what is routed; every other request is refused before its body is read
 */
public record ExtProcSettings(
    BodyMode requestBodyMode,
    BodyMode responseBodyMode,
    long maxBodyBytes,
    int echoChunkBytes,
    InferencePaths paths) {

  public static final ExtProcSettings DEFAULTS =
      new ExtProcSettings(
          BodyMode.FULL_DUPLEX_STREAMED, BodyMode.FULL_DUPLEX_STREAMED, 16L << 20, 62_000);

  /** Settings routing the default inference paths. */
  public ExtProcSettings(
      BodyMode requestBodyMode, BodyMode responseBodyMode, long maxBodyBytes, int echoChunkBytes) {
    this(requestBodyMode, responseBodyMode, maxBodyBytes, echoChunkBytes, InferencePaths.DEFAULTS);
  }

  public ExtProcSettings {
    Objects.requireNonNull(paths, "paths");
    Objects.requireNonNull(requestBodyMode, "requestBodyMode");
    Objects.requireNonNull(responseBodyMode, "responseBodyMode");
    if (requestBodyMode == BodyMode.NONE) {
      throw new IllegalArgumentException(
          "extProc.requestBodyMode: NONE (expected FULL_DUPLEX_STREAMED or BUFFERED: the model is"
              + " in the body)");
    }
    if (maxBodyBytes < 1) {
      throw new IllegalArgumentException(
          "extProc.maxBodyBytes: " + maxBodyBytes + " (expected >= 1)");
    }
    if (echoChunkBytes < 1024 || echoChunkBytes > 62_000) {
      throw new IllegalArgumentException(
          "extProc.echoChunkBytes: " + echoChunkBytes + " (expected 1024..62000)");
    }
  }
}
