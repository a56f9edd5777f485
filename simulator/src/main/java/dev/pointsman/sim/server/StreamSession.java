package dev.pointsman.sim.server;

import dev.pointsman.sim.engine.RequestResult;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.nio.charset.StandardCharsets;

/**
 * One streamed response. Engine events arrive on the driver thread and are handed to the channel's
 * event loop, where all state lives. Tokens produced while the channel is not writable are only
 * counted, and written when it becomes writable again, so a slow client costs no memory.
 */
final class StreamSession implements RequestSink {
  private final Channel ch;
  private final SimPod pod;
  private final StreamFormat format;
  private final boolean keepAlive;
  private final int disconnectAfter;
  private int produced;
  private int written;
  private RequestResult result;
  private boolean headersSent;
  private boolean closed;

  StreamSession(
      Channel ch, SimPod pod, OpenAiJson.Reply reply, CompletionCall call, boolean keepAlive) {
    this.ch = ch;
    this.pod = pod;
    this.format = StreamFormat.of(reply, call);
    this.keepAlive = keepAlive;
    this.disconnectAfter = pod.faults().disconnectAfterTokens();
  }

  boolean isDone() {
    return closed;
  }

  @Override
  public void onToken(int generated) {
    ch.eventLoop()
        .execute(
            () -> {
              produced = Math.max(produced, generated);
              drain();
            });
  }

  @Override
  public void onFinish(RequestResult r) {
    ch.eventLoop()
        .execute(
            () -> {
              result = r;
              produced = r.outputTokens();
              drain();
            });
  }

  @Override
  public void onLost() {
    onRejected("lost");
  }

  @Override
  public void onRejected(String message) {
    ch.eventLoop()
        .execute(
            () -> {
              closed = true;
              ch.close();
            });
  }

  /** Writes what the channel can take now; called on the event loop. */
  void drain() {
    if (closed || !ch.isActive()) {
      return;
    }
    sendHeaders();
    while (written < produced && ch.isWritable()) {
      if (disconnectAfter > 0 && written >= disconnectAfter) {
        closed = true;
        ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> ch.close());
        return;
      }
      format.token(written, this::event);
      written++;
    }
    if (result != null && written == produced) {
      finish();
    }
    ch.flush();
  }

  private void sendHeaders() {
    if (headersSent) {
      return;
    }
    headersSent = true;
    HttpResponse res = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
    res.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8");
    res.headers().set(HttpReplies.SERVED_BY, pod.name());
    HttpUtil.setTransferEncodingChunked(res, true);
    HttpUtil.setKeepAlive(res, keepAlive);
    ch.write(res);
    format.start(this::event);
  }

  private void finish() {
    closed = true;
    format.finish(result, this::event);
    var f = ch.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
    if (!keepAlive) {
      f.addListener(x -> ch.close());
    }
  }

  private void event(String sse) {
    ch.write(content(sse));
  }

  private static DefaultHttpContent content(String s) {
    return new DefaultHttpContent(Unpooled.copiedBuffer(s, StandardCharsets.UTF_8));
  }
}
