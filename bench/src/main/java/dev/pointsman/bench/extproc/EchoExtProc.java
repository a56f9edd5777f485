package dev.pointsman.bench.extproc;

import com.google.protobuf.ByteString;
import dev.pointsman.extproc.ExtProcSettings;
import dev.pointsman.extproc.InboundWindow;
import dev.pointsman.extproc.Responses;
import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpBody;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The physical limit of the ext_proc protocol on this stack: a do-nothing FULL_DUPLEX_STREAMED
 * processor that plays the picker's part of the exchange without parsing or deciding anything.
 * Never shipped; the baseline of {@link DataPathAB}.
 *
 * <p>Per stream it holds the request-headers reply until the body's end of stream (or trailers),
 * then sends one precomputed reply of the picker's shape (header mutation setting {@value
 * Responses#DESTINATION} as {@code raw_value}, {@code clear_route_cache}, dynamic metadata {@code
 * envoy.lb}), then echoes the body as {@code streamed_response} chunks by the picker's rule (the
 * chunks concatenated, then cut at {@code echoChunkBytes}, end of stream on the last), then the
 * trailers reply. Response-side messages pass through unchanged. It asks gRPC for its messages as
 * the picker does ({@link InboundWindow}).
 */
public final class EchoExtProc extends ExternalProcessorGrpc.ExternalProcessorImplBase {
  private final ProcessingResponse route;
  private final int echoChunkBytes;

  /** An echo that routes every request to {@code destination} ({@code ip:port}). */
  public EchoExtProc(String destination, ExtProcSettings settings) {
    this.route =
        Responses.routeOnHeaders(destination, null, Map.of(Responses.DESTINATION, destination));
    this.echoChunkBytes = settings.echoChunkBytes();
  }

  @Override
  public StreamObserver<ProcessingRequest> process(StreamObserver<ProcessingResponse> out) {
    return new Stream(out, InboundWindow.open(out));
  }

  private final class Stream implements StreamObserver<ProcessingRequest> {
    private final StreamObserver<ProcessingResponse> out;
    private final InboundWindow window;
    private final List<ByteString> chunks = new ArrayList<>();
    private boolean headers;
    private boolean bodyEnded;

    Stream(StreamObserver<ProcessingResponse> out, InboundWindow window) {
      this.out = out;
      this.window = window;
    }

    @Override
    public void onNext(ProcessingRequest message) {
      window.received();
      switch (message.getRequestCase()) {
        case REQUEST_HEADERS -> onHeaders(message.getRequestHeaders().getEndOfStream());
        case REQUEST_BODY -> onBody(message.getRequestBody());
        case REQUEST_TRAILERS -> onTrailers();
        case RESPONSE_HEADERS -> out.onNext(Responses.continueResponseHeaders());
        case RESPONSE_BODY ->
            out.onNext(
                Responses.responseBodyChunk(
                    message.getResponseBody().getBody(),
                    message.getResponseBody().getEndOfStream()));
        case RESPONSE_TRAILERS -> out.onNext(Responses.responseTrailers());
        case REQUEST_NOT_SET -> {}
      }
    }

    private void onHeaders(boolean noBody) {
      if (headers) {
        return;
      }
      headers = true;
      if (noBody) {
        bodyEnded = true;
        out.onNext(route);
      }
    }

    private void onBody(HttpBody body) {
      if (!headers || bodyEnded) {
        return; // out of order, or Envoy's duplicate end of stream
      }
      chunks.add(body.getBody());
      if (body.getEndOfStream()) {
        bodyEnded = true;
        forward(true);
      }
    }

    private void onTrailers() {
      if (headers && !bodyEnded) {
        bodyEnded = true;
        forward(false);
      }
      out.onNext(Responses.requestTrailers());
    }

    private void forward(boolean endOfStream) {
      out.onNext(route);
      ByteString all = ByteString.copyFrom(chunks);
      chunks.clear();
      int size = all.size();
      if (size == 0) {
        out.onNext(Responses.requestBodyChunk(ByteString.EMPTY, endOfStream));
        return;
      }
      for (int at = 0; at < size; at += echoChunkBytes) {
        int end = Math.min(size, at + echoChunkBytes);
        out.onNext(Responses.requestBodyChunk(all.substring(at, end), endOfStream && end == size));
      }
    }

    @Override
    public void onError(Throwable t) {
      chunks.clear(); // Envoy resets the side stream when the HTTP stream ends: normal
    }

    @Override
    public void onCompleted() {
      out.onCompleted();
    }
  }
}
