package dev.pointsman.picker.config;

import java.time.Duration;

/**
 * What the picker does on SIGTERM before it stops.
 *
 * @param graceSeconds how long it reports not ready (gRPC health NOT_SERVING for {@code readiness}
 *     and the ext_proc service, {@code /readyz} 503) while still serving every stream, new ones
 *     included, before its listener closes; then it waits up to {@code grpc.drainSeconds} for the
 *     streams in flight. Default 12: two failed Envoy health checks at the shipped 5 s interval,
 *     its 1 s timeout and a second of margin, so Envoy stops sending before the listener goes away
 */
public record ShutdownSection(Integer graceSeconds) {
  public static final ShutdownSection DEFAULTS = new ShutdownSection(null);

  /** The default grace period, in seconds. */
  public static final int DEFAULT_GRACE_SECONDS = 12;

  public ShutdownSection {
    graceSeconds = graceSeconds == null ? DEFAULT_GRACE_SECONDS : graceSeconds;
    if (graceSeconds < 0 || graceSeconds > 300) {
      throw new IllegalArgumentException("graceSeconds: " + graceSeconds + " (expected 0..300)");
    }
  }

  public Duration grace() {
    return Duration.ofSeconds(graceSeconds);
  }
}
