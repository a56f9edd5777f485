package dev.pointsman.extproc;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpBody;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpHeaders;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The response side of one stream: pass headers and body chunks straight through (an SSE stream
 * must never be held), time the first body byte, read {@code usage} from the tail, and report the
 * end once. The endpoint that served comes from {@code envoy.lb} metadata (the local gateway) or,
 * failing that, from the {@code x-gateway-destination-endpoint-served} response header a stock
 * Envoy route adds from {@code %UPSTREAM_HOST%}; that header is removed before the client sees it.
 */
final class ResponsePhase {
  private static final int TAIL_BYTES = 16 * 1024;

  private final Consumer<ProcessingResponse> send;
  private final RequestPhase request;
  private final BodyMode mode;
  private final LongSupplier clock;
  private final ByteTail tail = new ByteTail(TAIL_BYTES);
  private int status;
  private long firstByteNanos = -1;
  private String servedBy;
  private boolean ended;

  ResponsePhase(
      Consumer<ProcessingResponse> send, RequestPhase request, BodyMode mode, LongSupplier clock) {
    this.send = send;
    this.request = request;
    this.mode = mode;
    this.clock = clock;
  }

  void onHeaders(HttpHeaders headers, Metadata metadata) {
    String servedHeader = null;
    for (HeaderValue h : headers.getHeaders().getHeadersList()) {
      if (h.getKey().equals(":status")) {
        status = parseStatus(h);
      } else if (h.getKey().equalsIgnoreCase(Responses.SERVED_KEY)) {
        servedHeader = value(h).trim();
      }
    }
    servedBy = served(metadata);
    if (servedBy == null && servedHeader != null && !servedHeader.isEmpty()) {
      servedBy = servedHeader;
    }
    Map<String, String> set = request.responseHeaders(status, servedBy);
    // the served header names a pod: it is for the picker only, never for the client
    List<String> remove = servedHeader == null ? List.of() : List.of(Responses.SERVED_KEY);
    send.accept(
        set.isEmpty() && remove.isEmpty()
            ? Responses.continueResponseHeaders()
            : Responses.mutateResponseHeaders(set, remove));
    if (mode != BodyMode.FULL_DUPLEX_STREAMED) {
      firstByteNanos = clock.getAsLong();
      request.firstByte(firstByteNanos);
    }
    if (headers.getEndOfStream()) {
      complete(Completion.End.COMPLETED);
    }
  }

  void onBody(HttpBody body) {
    if (ended) {
      return; // duplicate end of stream
    }
    if (firstByteNanos < 0 && !body.getBody().isEmpty()) {
      firstByteNanos = clock.getAsLong();
      request.firstByte(firstByteNanos);
    }
    tail.append(body.getBody());
    if (mode == BodyMode.FULL_DUPLEX_STREAMED) {
      send.accept(Responses.responseBodyChunk(body.getBody(), body.getEndOfStream()));
    } else {
      send.accept(Responses.continueResponseBody());
    }
    if (body.getEndOfStream()) {
      complete(Completion.End.COMPLETED);
    }
  }

  void onTrailers() {
    send.accept(Responses.responseTrailers());
    complete(Completion.End.COMPLETED);
  }

  void complete(Completion.End end) {
    if (ended) {
      return;
    }
    ended = true;
    if (!request.forwarded()) {
      return;
    }
    long decided = request.decidedAtNanos();
    byte[] bytes = tail.toArray();
    Usage usage = UsageParser.parse(bytes, bytes.length);
    long ttft = firstByteNanos < 0 ? -1 : firstByteNanos - decided;
    request.end(new Completion(status, ttft, clock.getAsLong() - decided, usage, servedBy, end));
  }

  private static String value(HeaderValue h) {
    return h.getRawValue().isEmpty()
        ? h.getValue()
        : h.getRawValue().toString(StandardCharsets.UTF_8);
  }

  private static int parseStatus(HeaderValue h) {
    try {
      return Integer.parseInt(value(h).trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static String served(Metadata metadata) {
    Struct lb = metadata.getFilterMetadataMap().get(Responses.LB_NAMESPACE);
    if (lb == null) {
      return null;
    }
    Value v = lb.getFieldsMap().get(Responses.SERVED_KEY);
    String served = v == null ? "" : v.getStringValue().trim();
    return served.isEmpty() ? null : served;
  }
}
