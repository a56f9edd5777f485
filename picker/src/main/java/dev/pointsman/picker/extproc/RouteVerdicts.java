package dev.pointsman.picker.extproc;

import dev.pointsman.extproc.Verdict;
import dev.pointsman.picker.routing.DroppedReason;
import dev.pointsman.picker.routing.RouteOutcome;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the picker's handler and the fleet tier's share between routing and the protocol: a refusal
 * as a verdict, and an objective header read the same way everywhere.
 */
public final class RouteVerdicts {
  private RouteVerdicts() {}

  /**
   * A refusal as the protocol's verdict; a 429 or 503 carries the dropped-reason header (with the
   * refusal's own headers, such as a budget's remaining values).
   */
  public static Verdict reject(RouteOutcome.Rejected r) {
    int status = r.error().httpStatus();
    if (status != 429 && status != 503) {
      return new Verdict.Reject(r.error(), r.reason(), r.retryAfterSeconds());
    }
    String why = r.droppedReason() == null ? DroppedReason.INTERNAL : r.droppedReason();
    if (r.headers().isEmpty()) {
      return new Verdict.Reject(
          r.error(), r.reason(), r.retryAfterSeconds(), Map.of(DroppedReason.HEADER, why));
    }
    Map<String, String> headers = new LinkedHashMap<>(r.headers());
    headers.put(DroppedReason.HEADER, why);
    return new Verdict.Reject(r.error(), r.reason(), r.retryAfterSeconds(), headers);
  }

  /** An objective header in milliseconds as seconds, NaN when absent. */
  public static double sloSeconds(String name, String header) {
    if (header == null || header.isBlank()) {
      return Double.NaN;
    }
    double ms;
    try {
      ms = Double.parseDouble(header.trim());
    } catch (NumberFormatException e) {
      ms = Double.NaN;
    }
    if (!(ms > 0 && ms < 3_600_000)) {
      throw new IllegalArgumentException(
          name + ": '" + header + "' (expected a positive number of milliseconds)");
    }
    return ms / 1000;
  }
}
