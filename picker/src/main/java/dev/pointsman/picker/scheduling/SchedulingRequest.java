package dev.pointsman.picker.scheduling;

import java.util.Objects;
import java.util.Set;

/**
 * What the scheduler needs to know about one request.
 *
 * @param requestId the {@code x-request-id}
 * @param model the model name as the model server knows it (a LoRA adapter name, or the base model)
 * @param adapter the LoRA adapter, or null when the request targets the base model
 * @param promptPrefix the start of the prompt text (bounded), used for prefix-cache affinity
 * @param promptTokens estimated prompt tokens (whole prompt)
 * @param maxOutputTokens requested output limit, or -1
 * @param sheddable true when the request's objective allows shedding under saturation
 * @param subset endpoints the proxy allows (subset hint), or null for no restriction: {@code
 *     ip:port} allows that endpoint, a bare {@code ip} every port of that address
 * @param tpotSloSeconds the request's time-per-output-token objective, or NaN for none
 */
public record SchedulingRequest(
    String requestId,
    String model,
    String adapter,
    CharSequence promptPrefix,
    int promptTokens,
    int maxOutputTokens,
    boolean sheddable,
    Set<String> subset,
    double tpotSloSeconds) {

  public SchedulingRequest(
      String requestId,
      String model,
      String adapter,
      CharSequence promptPrefix,
      int promptTokens,
      int maxOutputTokens,
      boolean sheddable,
      Set<String> subset) {
    this(
        requestId,
        model,
        adapter,
        promptPrefix,
        promptTokens,
        maxOutputTokens,
        sheddable,
        subset,
        Double.NaN);
  }

  public SchedulingRequest {
    Objects.requireNonNull(requestId, "requestId");
    Objects.requireNonNull(model, "model");
    promptPrefix = promptPrefix == null ? "" : promptPrefix;
    if (promptTokens < 0) {
      throw new IllegalArgumentException("promptTokens: " + promptTokens + " (expected >= 0)");
    }
    subset = subset == null ? null : Set.copyOf(subset);
    if (!Double.isNaN(tpotSloSeconds) && !(tpotSloSeconds > 0 && tpotSloSeconds < 3600)) {
      throw new IllegalArgumentException(
          "tpotSloSeconds: " + tpotSloSeconds + " (expected NaN or in (0, 3600))");
    }
  }

  /** Whether {@code address} ({@code ip:port}) may be chosen under the subset hint. */
  public boolean allows(String address) {
    if (subset == null || subset.contains(address)) {
      return true;
    }
    int colon = address.lastIndexOf(':');
    if (colon <= 0) {
      return false;
    }
    String ip = address.substring(0, colon);
    if (subset.contains(ip)) {
      return true;
    }
    // IPv6: "[::1]:8000" is allowed by a bare "::1" or "[::1]"
    return ip.startsWith("[")
        && ip.endsWith("]")
        && subset.contains(ip.substring(1, ip.length() - 1));
  }

  /** Whether the request carries a time-per-output-token objective. */
  public boolean hasTpotSlo() {
    return !Double.isNaN(tpotSloSeconds);
  }

  /** A base-model request with no prefix text, for tests and simple callers. */
  public static SchedulingRequest of(String requestId, String model, int promptTokens) {
    return new SchedulingRequest(requestId, model, null, "", promptTokens, -1, false, null);
  }
}
