package dev.pointsman.extproc;

import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;

/**
 * Asks gRPC for a stream's messages several at a time. By default gRPC asks for the next message
 * only once the last one was handled, a task handed to the transport's event loop per message; a
 * request body arrives in tens of chunks, and when handling one takes longer than the event loop
 * stays awake (the picker parses each chunk) every chunk costs a wake-up of that loop. Here {@link
 * #MESSAGES} are asked for when the stream opens and half as many again each time half of them
 * arrived, so that between {@link #MESSAGES} / 2 and {@link #MESSAGES} are always asked for: gRPC
 * decodes at most that many ahead of the stream's handling, and the bytes behind them stay bounded
 * by HTTP/2 flow control. The messages are still handled one at a time, in order.
 *
 * <p>Not thread-safe: {@link #received()} is called from the stream's serialized message handling.
 */
public final class InboundWindow {
  /** Messages asked for ahead. */
  public static final int MESSAGES = 16;

  private final ServerCallStreamObserver<?> call;
  private int arrived;

  private InboundWindow(ServerCallStreamObserver<?> call) {
    this.call = call;
  }

  /**
   * Takes over the asking for {@code out}'s call; to be called from the service method, before it
   * returns. An observer that is not a server call's (a test's) is left alone.
   */
  public static InboundWindow open(StreamObserver<?> out) {
    if (!(out instanceof ServerCallStreamObserver<?> call)) {
      return new InboundWindow(null);
    }
    call.disableAutoRequest();
    call.request(MESSAGES);
    return new InboundWindow(call);
  }

  /** A message arrived: asks for more each time half of those asked for have. */
  public void received() {
    if (call != null && ++arrived == MESSAGES / 2) {
      arrived = 0;
      call.request(MESSAGES / 2);
    }
  }
}
