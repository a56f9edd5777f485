package dev.pointsman.picker.routing;

import dev.pointsman.inference.request.ParsedRequest;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * One request as the protocol layer hands it to routing.
 *
 * @param requestId the {@code x-request-id}
 * @param body what the body says
 * @param objective the {@code x-gateway-inference-objective} header, or null
 * @param subset the proxy's subset hint, or null
 * @param tpotSloSeconds the request's time-per-output-token objective, or NaN for none
 * @param fairnessId the flow-control tenant (the fairness header), or null for the default flow
 * @param ttftSloSeconds the request's time-to-first-token objective, or NaN for none
 * @param bodyBytes the request body's size, or -1 when unknown
 * @param headers a request header's value by its lower-case name (null when absent)
 */
public record RouteInput(
    String requestId,
    ParsedRequest body,
    String objective,
    Set<String> subset,
    double tpotSloSeconds,
    String fairnessId,
    double ttftSloSeconds,
    long bodyBytes,
    Function<String, String> headers) {
  private static final Function<String, String> NO_HEADERS = name -> null;

  public RouteInput(String requestId, ParsedRequest body, String objective, Set<String> subset) {
    this(requestId, body, objective, subset, Double.NaN);
  }

  public RouteInput(
      String requestId,
      ParsedRequest body,
      String objective,
      Set<String> subset,
      double tpotSloSeconds) {
    this(requestId, body, objective, subset, tpotSloSeconds, null, Double.NaN, -1, NO_HEADERS);
  }

  public RouteInput(
      String requestId,
      ParsedRequest body,
      String objective,
      Set<String> subset,
      double tpotSloSeconds,
      String fairnessId,
      double ttftSloSeconds,
      long bodyBytes) {
    this(
        requestId,
        body,
        objective,
        subset,
        tpotSloSeconds,
        fairnessId,
        ttftSloSeconds,
        bodyBytes,
        NO_HEADERS);
  }

  public RouteInput(
      String requestId,
      ParsedRequest body,
      String objective,
      Set<String> subset,
      double tpotSloSeconds,
      Function<String, String> headers) {
    this(requestId, body, objective, subset, tpotSloSeconds, null, Double.NaN, -1, headers);
  }

  public RouteInput {
    Objects.requireNonNull(requestId, "requestId");
    Objects.requireNonNull(body, "body");
    subset = subset == null ? null : Set.copyOf(subset);
    headers = headers == null ? NO_HEADERS : headers;
  }
}
