package dev.pointsman.picker.scrape;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One persistent HTTP/1.1 connection to one endpoint, for GETs of one path, one at a time. It is
 * opened by the first request, kept alive across requests, and reopened by the next request after a
 * failure, a timeout or the server closing it. A request that finds a connection already used
 * closed by the server before any answer (an idle timeout racing the request) is sent once more on
 * a new one. A request not answered within its timeout fails and closes the connection (its answer
 * could no longer be told from the next one's). One timer per connection serves its requests: it is
 * armed for the first request's deadline and, when it fires before the request in flight then is
 * due, re-armed for that one's, so that a scrape neither schedules nor cancels a task.
 *
 * <p>Thread-safe: every state change runs on the connection's event loop.
 */
final class HttpConnection {

  private final Bootstrap bootstrap;
  private final EventLoop loop;
  private final String host;
  private final int port;
  private final ByteBuf request;

  // Event-loop confined.
  private Channel channel;
  private boolean reused;
  private Exchange pending;
  private boolean closed;
  private ScheduledFuture<?> timer;

  /** The request in flight. */
  private static final class Exchange {
    final CompletableFuture<HttpBody> answer = new CompletableFuture<>();
    final long deadline;
    final long timeoutNanos;
    boolean retried;

    Exchange(long timeoutNanos) {
      this.timeoutNanos = timeoutNanos;
      this.deadline = System.nanoTime() + timeoutNanos;
    }
  }

  /**
   * @param tls the TLS client context for an endpoint serving HTTPS, or null for plain HTTP
   */
  HttpConnection(
      Bootstrap bootstrap,
      SslContext tls,
      String host,
      int port,
      String path,
      String accept,
      int maxBodyBytes) {
    this.loop = (EventLoop) bootstrap.config().group();
    this.bootstrap =
        bootstrap.handler(
            new ChannelInitializer<>() {
              @Override
              protected void initChannel(Channel ch) {
                if (tls != null) {
                  // writes wait for the handshake; a failed one fails the request in flight
                  ch.pipeline().addLast(tls.newHandler(ch.alloc(), host, port));
                }
                ch.pipeline()
                    .addLast(new HttpResponseDecoder(4096, 16 * 1024, 64 * 1024))
                    .addLast(new ResponseReader(HttpConnection.this, maxBodyBytes));
              }
            });
    this.host = host;
    this.port = port;
    String head =
        "GET "
            + path
            + " HTTP/1.1\r\nHost: "
            + (host.indexOf(':') >= 0 ? "[" + host + "]" : host)
            + ":"
            + port
            + "\r\nAccept: "
            + accept
            + "\r\nUser-Agent: pointsman-picker\r\n\r\n";
    // On the heap: nothing to release when the connection goes (a direct buffer is native memory
    // that only release() frees, and a connection has no last moment its writes are all done).
    // Netty copies it to a pooled direct buffer for each write, a hundred bytes per scrape.
    this.request =
        Unpooled.unreleasableBuffer(
            Unpooled.wrappedBuffer(head.getBytes(StandardCharsets.US_ASCII)).asReadOnly());
  }

  /**
   * Sends the GET; the answer completes on the event loop, or fails with {@link
   * ScrapeTimeoutException} after {@code timeoutNanos}, a {@link java.net.ConnectException}, {@link
   * BodyTooLargeException}, another {@link IOException}, or {@link CancellationException} after
   * {@link #close()}. One request at a time: the caller waits for the answer before the next.
   */
  CompletableFuture<HttpBody> get(long timeoutNanos) {
    Exchange exchange = new Exchange(timeoutNanos);
    if (loop.inEventLoop()) {
      start(exchange);
    } else {
      loop.execute(() -> start(exchange));
    }
    return exchange.answer;
  }

  /** Closes the connection; a request in flight fails with {@link CancellationException}. */
  void close() {
    if (loop.inEventLoop()) {
      closeNow();
    } else {
      try {
        loop.execute(this::closeNow);
      } catch (RejectedExecutionException stopped) {
        // the event loop is shut down: its channels are closed with it
      }
    }
  }

  private void closeNow() {
    closed = true;
    fail(new CancellationException("connection closed"));
    if (timer != null) {
      timer.cancel(false); // else the loop's timer queue keeps this connection until it fires
      timer = null;
    }
  }

  private void start(Exchange exchange) {
    if (closed || pending != null) {
      exchange.answer.completeExceptionally(
          closed
              ? new CancellationException("connection closed")
              : new IllegalStateException("a request is in flight on this connection"));
      return;
    }
    pending = exchange;
    if (timer == null) {
      timer = loop.schedule(this::timerFired, exchange.timeoutNanos, TimeUnit.NANOSECONDS);
    }
    send();
  }

  private void send() {
    Channel ch = channel;
    if (ch != null && ch.isActive()) {
      ch.writeAndFlush(request.duplicate(), ch.voidPromise());
      return;
    }
    reused = false;
    ChannelFuture connecting = bootstrap.connect(host, port);
    Channel opening = connecting.channel();
    channel = opening;
    connecting.addListener(
        f -> {
          if (!f.isSuccess()) {
            failed(opening, f.cause());
          } else if (opening == channel && pending != null) {
            opening.writeAndFlush(request.duplicate(), opening.voidPromise());
          }
        });
  }

  /** A whole answer arrived on {@code ch}. */
  void answered(Channel ch, HttpBody body, boolean keepAlive) {
    if (ch != channel || pending == null) {
      ch.close();
      return;
    }
    Exchange exchange = pending;
    pending = null;
    reused = true;
    if (!keepAlive) {
      channel = null;
      ch.close();
    }
    exchange.answer.complete(body);
  }

  /** {@code ch} failed: the request in flight on it fails with {@code cause}. */
  void failed(Channel ch, Throwable cause) {
    if (ch == channel) {
      fail(cause);
    } else {
      ch.close();
    }
  }

  /** {@code ch} closed; {@code answering} when part of an answer had come. */
  void closed(Channel ch, boolean answering) {
    if (ch != channel) {
      return;
    }
    channel = null;
    Exchange exchange = pending;
    if (exchange == null) {
      return; // closed while idle: the next request reconnects
    }
    if (reused && !answering && !exchange.retried && !closed) {
      exchange.retried = true;
      send();
    } else {
      fail(new IOException("connection closed before the answer was complete"));
    }
  }

  /** Fails the request in flight if it is due, else waits for it; idle, it stays unarmed. */
  private void timerFired() {
    timer = null;
    Exchange exchange = pending;
    if (exchange == null) {
      return;
    }
    long left = exchange.deadline - System.nanoTime();
    if (left <= 0) {
      fail(new ScrapeTimeoutException(exchange.timeoutNanos));
    } else {
      timer = loop.schedule(this::timerFired, left, TimeUnit.NANOSECONDS);
    }
  }

  /** Closes the channel and fails the request in flight, if any. */
  private void fail(Throwable cause) {
    Channel ch = channel;
    channel = null;
    if (ch != null) {
      ch.close();
    }
    Exchange exchange = pending;
    pending = null;
    if (exchange != null) {
      exchange.answer.completeExceptionally(cause);
    }
  }
}
