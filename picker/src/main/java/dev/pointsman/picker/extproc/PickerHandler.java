package dev.pointsman.picker.extproc;

import dev.pointsman.extproc.Completion;
import dev.pointsman.extproc.ExtProcHandler;
import dev.pointsman.extproc.RequestHead;
import dev.pointsman.extproc.Responses;
import dev.pointsman.extproc.Verdict;
import dev.pointsman.inference.error.OpenAiError;
import dev.pointsman.inference.request.ParsedRequest;
import dev.pointsman.picker.routing.RouteInput;
import dev.pointsman.picker.routing.RouteOutcome;
import dev.pointsman.picker.routing.Routing;
import dev.pointsman.picker.scheduling.Candidate;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The endpoint picker's decision: route the request, set {@code x-gateway-destination-endpoint}
 * (exactly one {@code ip:port}, as an ORIGINAL_DST cluster requires) and the {@code envoy.lb}
 * metadata (the primary, then any fallbacks, for data planes that retry through them), make the
 * body name the model as the model server knows it (an alias or an omitted model is rewritten), and
 * release the in-flight hold exactly once when the request ends.
 */
final class PickerHandler implements ExtProcHandler {
  private final Routing routing;
  private final ExtProcObserver observer;
  private final LongSupplier clock;

  PickerHandler(Routing routing, ExtProcObserver observer, LongSupplier clock) {
    this.routing = routing;
    this.observer = observer;
    this.clock = clock;
  }

  @Override
  public Verdict decide(RequestHead head, ParsedRequest body) {
    double tpotSlo;
    try {
      tpotSlo = tpotSloSeconds(head.tpotSlo());
    } catch (IllegalArgumentException e) {
      return new Verdict.Reject(
          new OpenAiError(400, e.getMessage(), "invalid_request_error", "invalid_slo_header"),
          "bad_slo_header",
          0);
    }
    RouteInput input =
        new RouteInput(head.requestId(), body, head.objective(), head.subset(), tpotSlo);
    long start = clock.getAsLong();
    RouteOutcome outcome = routing.route(input);
    observer.onDecision(input, outcome, clock.getAsLong() - start);
    return switch (outcome) {
      case RouteOutcome.Rejected r ->
          new Verdict.Reject(r.error(), r.reason(), r.retryAfterSeconds());
      case RouteOutcome.Routed r -> forward(head, r);
    };
  }

  /** The {@code x-slo-tpot-ms} header in seconds, NaN when absent. */
  static double tpotSloSeconds(String header) {
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
          RequestHead.TPOT_SLO_HEADER
              + ": '"
              + header
              + "' (expected a positive number of milliseconds)");
    }
    return ms / 1000;
  }

  private Verdict forward(RequestHead head, RouteOutcome.Routed r) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(Responses.DESTINATION, r.picked().address());
    headers.put("x-gateway-model-name", r.model());
    if (head.requestIdGenerated()) {
      headers.put("x-request-id", head.requestId());
    }
    StringBuilder destinations = new StringBuilder(r.picked().address());
    for (Candidate c : r.picked().fallbacks()) {
      destinations.append(',').append(c.address());
    }
    return new Verdict.Forward(
        headers,
        destinations.toString(),
        new Verdict.ResponseListener() {
          @Override
          public void onFirstByte() {
            r.picked().ticket().firstToken(); // its prefill is done: no longer queued work
          }

          @Override
          public void onEnd(Completion completion) {
            routing.completed(r, completion);
            observer.onCompleted(r, completion);
          }
        },
        r.model());
  }

  @Override
  public String modelsJson() {
    return routing.modelsJson();
  }

  @Override
  public String modelJson(String id) {
    return routing.modelJson(id);
  }
}
