package dev.pointsman.gateway.extproc;

import dev.pointsman.gateway.http.HeaderList;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.netty.buffer.ByteBuf;
import java.util.concurrent.Executor;

/**
 * One ext_proc stream, Envoy's side. Every callback is handed to the request's executor (its event
 * loop), in order, so the listener is confined to that thread; every send must come from it too,
 * which serializes {@code onNext}. Inbound flow control is manual: the listener asks for each next
 * message with {@link #request()} when it can take one; outbound, {@link #isReady()} and {@link
 * Listener#onReady()} follow gRPC's flow control.
 */
public final class ExtProcCall
    implements ClientResponseObserver<ProcessingRequest, ProcessingResponse> {

  /** Receives the stream's events on the request's executor. */
  public interface Listener {
    void onReply(PickerReply reply);

    /** The stream can take more messages. */
    void onReady();

    /** The picker ended the stream: cleanly ({@code status} OK) or not. */
    void onEnd(Status status);
  }

  private final Executor executor;
  private final Listener listener;
  private ClientCallStreamObserver<ProcessingRequest> call;
  private boolean closedByUs;

  ExtProcCall(Executor executor, Listener listener) {
    this.executor = executor;
    this.listener = listener;
  }

  @Override
  public void beforeStart(ClientCallStreamObserver<ProcessingRequest> requestStream) {
    call = requestStream;
    call.disableAutoRequestWithInitial(1);
    call.setOnReadyHandler(() -> executor.execute(listener::onReady));
  }

  @Override
  public void onNext(ProcessingResponse value) {
    PickerReply reply = Replies.decode(value);
    executor.execute(() -> listener.onReply(reply));
  }

  @Override
  public void onError(Throwable t) {
    Status status = Status.fromThrowable(t);
    executor.execute(() -> listener.onEnd(status));
  }

  @Override
  public void onCompleted() {
    executor.execute(() -> listener.onEnd(Status.OK));
  }

  public void sendRequestHeaders(HeaderList headers, boolean endOfStream) {
    send(Requests.requestHeaders(headers, endOfStream));
  }

  public void sendRequestBody(ByteBuf chunk, boolean endOfStream) {
    send(Requests.requestBody(chunk, endOfStream));
  }

  public void sendRequestTrailers(HeaderList trailers) {
    send(Requests.requestTrailers(trailers));
  }

  /** Response headers, with the served endpoint in {@code envoy.lb} metadata (null: none). */
  public void sendResponseHeaders(HeaderList headers, boolean endOfStream, String served) {
    send(Requests.responseHeaders(headers, endOfStream, served));
  }

  public void sendResponseBody(ByteBuf chunk, boolean endOfStream) {
    send(Requests.responseBody(chunk, endOfStream));
  }

  public void sendResponseTrailers(HeaderList trailers) {
    send(Requests.responseTrailers(trailers));
  }

  /** Whether another message can be sent without buffering in gRPC. */
  public boolean isReady() {
    return !closedByUs && call.isReady();
  }

  /** Asks for the next reply. */
  public void request() {
    if (!closedByUs) {
      call.request(1);
    }
  }

  /** The HTTP stream is done: half-close, as Envoy ends a finished side stream. */
  public void halfClose() {
    if (!closedByUs) {
      closedByUs = true;
      call.onCompleted();
    }
  }

  /** The HTTP stream was reset: cancel the side stream (the picker sees CANCELLED). */
  public void cancel(String why) {
    if (!closedByUs) {
      closedByUs = true;
      call.cancel(why, null);
    }
  }

  private void send(ProcessingRequest message) {
    if (!closedByUs) {
      call.onNext(message);
    }
  }
}
