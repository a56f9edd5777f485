package dev.pointsman.gateway.config;

import java.time.Duration;

/**
 * Timeouts, as in the Envoy config: no total route timeout (generations are long), an idle timeout
 * for silent streams, a short upstream connect timeout so a dead pod fails fast.
 *
 * @param upstreamConnectMillis connect timeout to a model server (Envoy cluster connect_timeout)
 * @param streamIdleMillis a request with no activity either way for this long ends: 408 before the
 *     response started, a reset after (HCM stream_idle_timeout)
 * @param pickerConnectMillis connect timeout to the picker
 */
public record TimeoutSection(
    Integer upstreamConnectMillis, Integer streamIdleMillis, Integer pickerConnectMillis) {

  public static final TimeoutSection DEFAULTS = new TimeoutSection(null, null, null);

  public TimeoutSection {
    upstreamConnectMillis = upstreamConnectMillis == null ? 2_000 : upstreamConnectMillis;
    streamIdleMillis = streamIdleMillis == null ? 600_000 : streamIdleMillis;
    pickerConnectMillis = pickerConnectMillis == null ? 1_000 : pickerConnectMillis;
    positive("upstreamConnectMillis", upstreamConnectMillis);
    positive("streamIdleMillis", streamIdleMillis);
    positive("pickerConnectMillis", pickerConnectMillis);
  }

  private static void positive(String name, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(name + ": " + value + " (expected >= 1)");
    }
  }

  public Duration upstreamConnect() {
    return Duration.ofMillis(upstreamConnectMillis);
  }

  public Duration streamIdle() {
    return Duration.ofMillis(streamIdleMillis);
  }

  public Duration pickerConnect() {
    return Duration.ofMillis(pickerConnectMillis);
  }

  public TimeoutSection withStreamIdleMillis(int millis) {
    return new TimeoutSection(upstreamConnectMillis, millis, pickerConnectMillis);
  }
}
