package dev.pointsman.extproc;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpBody;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpHeaders;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The response side of one stream: pass headers and body chunks straight through (an SSE stream
 * must never be held), time the first body byte, read {@code usage} from the tail, and report the
 * end once.
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
    for (HeaderValue h : headers.getHeaders().getHeadersList()) {
      if (h.getKey().equals(":status")) {
        status = parseStatus(h);
      }
    }
    servedBy = served(metadata);
    Map<String, String> set = request.responseHeaders(status, servedBy);
    send.accept(
        set.isEmpty() ? Responses.continueResponseHeaders() : Responses.setResponseHeaders(set));
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

  private static int parseStatus(HeaderValue h) {
    String v =
        h.getRawValue().isEmpty() ? h.getValue() : h.getRawValue().toString(StandardCharsets.UTF_8);
    try {
      return Integer.parseInt(v.trim());
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
