package dev.pointsman.sim.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.concurrent.TimeUnit;

/**
 * Aggregates request bodies up to a limit; a larger one gets 413 in OpenAI format followed by a
 * lingering close, as production HTTP servers do: the pod stops writing (half close) and keeps
 * reading and dropping what the client still sends, so the client reads the 413 before the
 * connection goes. A plain close with unread bytes makes the kernel send a reset, which discards
 * the 413 on its way to the client.
 */
final class LingeringAggregator extends HttpObjectAggregator {
  /** How long the pod keeps reading after its 413 before it closes anyway. */
  static final long LINGER_MILLIS = 5_000;

  private final SimPod pod;

  LingeringAggregator(SimPod pod, int maxContentLength) {
    super(maxContentLength);
    this.pod = pod;
  }

  @Override
  protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
    if (!(oversized instanceof HttpRequest)) {
      ctx.close();
      return;
    }
    String message = "request body exceeds " + maxContentLength() + " bytes";
    HttpReplies.json(
            ctx,
            pod,
            HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
            OpenAiJson.error(message, "BadRequestError", 413))
        .addListener(
            f -> {
              if (ctx.channel() instanceof SocketChannel s && s.isActive()) {
                s.shutdownOutput();
                ctx.executor().schedule(() -> ctx.close(), LINGER_MILLIS, TimeUnit.MILLISECONDS);
              } else {
                ctx.close();
              }
            });
  }
}
