package dev.pointsman.picker.scheduling;

/**
 * What a pool's model servers speak on their target ports: the upstream InferencePool's {@code
 * spec.appProtocol} (v1.4+). The data plane must open connections of that protocol.
 */
public enum AppProtocol {
  /** HTTP/1.1 ({@code http}); also when the pool names none. */
  HTTP("http"),
  /** HTTP/2 over cleartext, prior knowledge ({@code kubernetes.io/h2c}). */
  H2C("kubernetes.io/h2c");

  private final String value;

  AppProtocol(String value) {
    this.value = value;
  }

  /** The value as the InferencePool spells it. */
  public String value() {
    return value;
  }

  /**
   * @param value the InferencePool's {@code spec.appProtocol}, or null for the default
   * @throws IllegalArgumentException for any other value
   */
  public static AppProtocol of(String value) {
    if (value == null || value.equals(HTTP.value)) {
      return HTTP;
    }
    if (value.equals(H2C.value)) {
      return H2C;
    }
    throw new IllegalArgumentException(
        "spec.appProtocol: '" + value + "' (expected 'http' or 'kubernetes.io/h2c')");
  }
}
