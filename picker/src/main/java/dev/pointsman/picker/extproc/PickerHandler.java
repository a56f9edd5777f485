package dev.pointsman.picker.extproc;

import dev.pointsman.extproc.Completion;
import dev.pointsman.extproc.ExtProcHandler;
import dev.pointsman.extproc.RequestHead;
import dev.pointsman.extproc.Responses;
import dev.pointsman.extproc.Verdict;
import dev.pointsman.inference.error.OpenAiError;
import dev.pointsman.inference.request.ParsedRequest;
import dev.pointsman.picker.routing.DroppedReason;
import dev.pointsman.picker.routing.RouteInput;
import dev.pointsman.picker.routing.RouteOutcome;
import dev.pointsman.picker.routing.Routing;
import dev.pointsman.picker.scheduling.AppProtocol;
import dev.pointsman.picker.scheduling.Candidate;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * The endpoint picker's decision: route the request, set {@code x-gateway-destination-endpoint} and
 * the {@code envoy.lb} destination to the same value (the primary alone for an ORIGINAL_DST data
 * plane, with the fallbacks in a key of their own; the primary then the fallbacks for an
 * override_host data plane), make the body name the model as the model server knows it (an alias or
 * an omitted model is rewritten), charge the request to the endpoint that served it, and release
 * its in-flight hold exactly once when it ends. Every 429 and 503 says why in {@link
 * DroppedReason#HEADER}. A request to a pool whose model servers speak h2c also carries {@link
 * #APP_PROTOCOL_HEADER}, for the data plane to pick an HTTP/2 upstream.
 */
final class PickerHandler implements ExtProcHandler {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(PickerHandler.class);

  /**
   * Set to the pool's {@code spec.appProtocol} when that is not HTTP/1.1 ({@code
   * kubernetes.io/h2c}); absent for HTTP/1.1. An Envoy route can match it to choose an upstream
   * cluster with HTTP/2 (see docs/envoy.md).
   */
  static final String APP_PROTOCOL_HEADER = "x-pointsman-app-protocol";

  /** The conformance suite reads the served endpoint here. */
  static final String SERVED_HEADER = "x-conformance-test-served-endpoint";

  /** What the served-endpoint header says when the proxy did not report one (as lwepp does). */
  static final String SERVED_MISSING = "fail: missing destination endpoint served metadata";

  private final Routing routing;
  private final ExtProcObserver observer;
  private final LongSupplier clock;
  private final PickerOptions options;
  private final FlowHeaders flow;

  PickerHandler(
      Routing routing, ExtProcObserver observer, LongSupplier clock, PickerOptions options) {
    this(routing, observer, clock, options, null);
  }

  /**
   * @param flow the headers flow control reads, or null when it is off (they are then ignored)
   */
  PickerHandler(
      Routing routing,
      ExtProcObserver observer,
      LongSupplier clock,
      PickerOptions options,
      FlowHeaders flow) {
    this.routing = routing;
    this.observer = observer;
    this.clock = clock;
    this.options = options;
    this.flow = flow;
  }

  @Override
  public Verdict decide(RequestHead head, ParsedRequest body) {
    double tpotSlo;
    double ttftSlo = Double.NaN;
    try {
      tpotSlo = tpotSloSeconds(head.tpotSlo());
      if (flow != null) {
        ttftSlo = RouteVerdicts.sloSeconds(flow.deadline(), head.header(flow.deadline()));
      }
    } catch (IllegalArgumentException e) {
      return new Verdict.Reject(
          new OpenAiError(400, e.getMessage(), "invalid_request_error", "invalid_slo_header"),
          "bad_slo_header",
          0);
    }
    RouteInput input =
        flow == null
            ? new RouteInput(
                head.requestId(), body, head.objective(), allowed(head), tpotSlo, head::header)
            : new RouteInput(
                head.requestId(),
                body,
                head.objective(),
                allowed(head),
                tpotSlo,
                head.header(flow.fairness()),
                ttftSlo,
                head.contentLength(),
                head::header);
    long start = clock.getAsLong();
    if (flow == null) {
      return decided(head, input, routing.route(input), start);
    }
    CompletableFuture<RouteOutcome> pending = routing.submit(input);
    if (pending.isDone()) {
      return decided(head, input, pending.join(), start);
    }
    // held in flow control: the stream waits with its headers reply, and leaving takes it out
    return new Verdict.Deferred(
        pending.thenApply(o -> decided(head, input, o, start)), () -> pending.cancel(false));
  }

  private Verdict decided(RequestHead head, RouteInput input, RouteOutcome outcome, long start) {
    observer.onDecision(input, outcome, clock.getAsLong() - start);
    return switch (outcome) {
      case RouteOutcome.Rejected r -> RouteVerdicts.reject(r);
      case RouteOutcome.Routed r -> forward(head, r);
    };
  }

  /**
   * The endpoints the request may go to: the proxy's subset hint, or in conformance test mode the
   * {@code test-epp-endpoint-selection} header when present (it wins over the hint, as in the
   * suite's reference picker). Outside that mode the header is ignored: clients never choose pods.
   */
  private Set<String> allowed(RequestHead head) {
    String selection = head.testEndpointSelection();
    if (options.conformanceTestHooks() && selection != null && !selection.isBlank()) {
      return RequestHead.endpointList(selection);
    }
    return head.subset();
  }

  /** The {@code x-slo-tpot-ms} header in seconds, NaN when absent. */
  static double tpotSloSeconds(String header) {
    return RouteVerdicts.sloSeconds(RequestHead.TPOT_SLO_HEADER, header);
  }

  private Verdict forward(RequestHead head, RouteOutcome.Routed r) {
    String primary = r.picked().address();
    StringJoiner fallbacks = new StringJoiner(",");
    for (Candidate c : r.picked().fallbacks()) {
      fallbacks.add(c.address());
    }
    boolean list = options.dataPlane() == PickerOptions.DataPlane.OVERRIDE_HOST;
    String destination = list && fallbacks.length() > 0 ? primary + "," + fallbacks : primary;
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(Responses.DESTINATION, destination);
    headers.put("x-gateway-model-name", r.model());
    if (r.appProtocol() != AppProtocol.HTTP) {
      headers.put(APP_PROTOCOL_HEADER, r.appProtocol().value());
    }
    if (head.requestIdGenerated()) {
      headers.put("x-request-id", head.requestId());
    }
    if (options.shadow()) { // the existing balancer routes: its choice, or no destination at all
      headers.remove(Responses.DESTINATION);
      String chosen = balancerChoice(head, r);
      if (chosen == null) {
        return new Verdict.Forward(headers, null, new Listener(r, null), r.model(), null);
      }
      headers.put(Responses.DESTINATION, chosen);
      // the one pod the data plane will connect to: charge it now, as the proxy would report it
      RouteOutcome.Routed charged = routing.served(r, chosen);
      return new Verdict.Forward(headers, chosen, new Listener(charged, chosen), r.model(), null);
    }
    return new Verdict.Forward(
        headers,
        destination,
        new Listener(r, null),
        r.model(),
        list || fallbacks.length() == 0 ? null : fallbacks.toString());
  }

  /**
   * In shadow mode with a balancer header: the endpoint the balancer in front chose, when it is one
   * of the decision's candidates (an endpoint of the pool the picker would consider); null
   * otherwise, and the request takes the data plane's default route. Only a candidate is accepted
   * so that the header can never send a request outside the pool.
   */
  private String balancerChoice(RequestHead head, RouteOutcome.Routed r) {
    if (options.balancerHeader() == null) {
      return null;
    }
    String value = head.header(options.balancerHeader());
    if (value == null || value.isBlank()) {
      return null;
    }
    String chosen = value.trim();
    var why = r.picked().explanation();
    if (why != null && why.candidates().contains(chosen)) {
      return chosen;
    }
    observer.onBalancerChoiceIgnored();
    LOG.debug(
        "shadow: {} names '{}', not a candidate of pool {}: default route",
        options.balancerHeader(),
        chosen,
        r.pool());
    return null;
  }

  /**
   * Follows one routed request's response. Its callbacks come from one stream, one at a time; the
   * fields are volatile because gRPC may run successive callbacks on different threads.
   */
  private final class Listener implements Verdict.ResponseListener {
    private volatile RouteOutcome.Routed routed;
    private volatile int status;
    private volatile String servedBy;
    private final String destination;

    /**
     * @param destination the one endpoint the reply routed to in shadow mode (the balancer's
     *     choice), already charged as the one that served (an ORIGINAL_DST data plane connects to
     *     exactly it, so the proxy's report is not asked again); null when it named none or in
     *     normal mode
     */
    Listener(RouteOutcome.Routed routed, String destination) {
      this.routed = routed;
      this.destination = destination;
    }

    @Override
    public Map<String, String> onResponseHeaders(int status, String reported) {
      String servedBy = destination != null ? destination : reported;
      this.status = status;
      this.servedBy = servedBy;
      RouteOutcome.Routed current = destination != null ? routed : routing.served(routed, servedBy);
      routed = current;
      if (!current.streamed()) {
        // a non-streamed response's headers come once it is generated: its prefill is long over
        current.picked().ticket().firstToken();
      }
      if (!options.conformanceTestHooks()) {
        return Map.of();
      }
      return Map.of(SERVED_HEADER, servedBy == null ? SERVED_MISSING : servedBy);
    }

    @Override
    public void onFirstByte(long ttftNanos) {
      routing.firstByte(routed, status, servedBy, ttftNanos);
    }

    @Override
    public void onEnd(Completion completion) {
      RouteOutcome.Routed current = routed;
      routing.completed(current, completion);
      observer.onCompleted(current, completion);
    }
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
