package dev.pointsman.gateway.proxy;

import dev.pointsman.gateway.config.HostPort;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * One exchange's connection to its model server: connects (or reuses a pooled connection) on the
 * exchange's loop, holds what is written before the connection is up (and keeps it when the
 * connection cannot be made, so that it can be sent elsewhere), and gives the connection back to
 * the pool when both directions completed on a keep-alive response. Confined to the loop.
 */
final class UpstreamLeg {
  private final UpstreamPool pool;
  private final EventLoop loop;
  private final UpstreamHandler.Listener listener;
  private final ArrayDeque<HttpObject> pending = new ArrayDeque<>();
  private HostPort address;
  private Channel ch;
  private boolean failed;
  private boolean requestEnded;
  private boolean responseEnded;
  private boolean keepAlive = true;
  private boolean detached;

  UpstreamLeg(UpstreamPool pool, EventLoop loop, UpstreamHandler.Listener listener) {
    this.pool = pool;
    this.loop = loop;
    this.listener = listener;
  }

  /**
   * Connects to {@code target} (a stream on an HTTP/2 cleartext connection when {@code h2c});
   * {@code onResult} gets null on success, else the failure. After a failure nothing was sent and
   * the request written so far is still held: connect again (to another target) or {@link #abort}.
   */
  void connect(HostPort target, boolean h2c, Consumer<Throwable> onResult) {
    this.address = target;
    Future<Channel> f = h2c ? pool.acquireH2cStream(loop, target) : pool.acquire(loop, target);
    f.addListener(
        done -> {
          if (failed) {
            if (done.isSuccess()) {
              f.getNow().close();
            }
            return;
          }
          if (!done.isSuccess()) {
            // nothing reached the model server: what was written stays pending, for the caller
            // to connect again elsewhere or to abort
            onResult.accept(done.cause());
            return;
          }
          attach(f.getNow());
          onResult.accept(null);
        });
  }

  private void attach(Channel channel) {
    ch = channel;
    ch.pipeline().get(UpstreamHandler.class).attach(listener);
    for (HttpObject o = pending.poll(); o != null; o = pending.poll()) {
      ch.write(o);
    }
    ch.flush();
  }

  boolean started() {
    return address != null;
  }

  String address() {
    return address == null ? null : address.toString();
  }

  void write(HttpObject o) {
    if (o instanceof LastHttpContent) {
      requestEnded = true;
    }
    if (failed || detached) {
      ReferenceCountUtil.release(o);
    } else if (ch == null) {
      pending.add(o);
    } else {
      ch.writeAndFlush(o);
    }
    maybeRelease();
  }

  boolean requestEnded() {
    return requestEnded;
  }

  /** Whether request-body writes can go out now without piling up. */
  boolean canTakeBody() {
    return failed || requestEnded || (ch != null && ch.isWritable());
  }

  boolean writable() {
    return ch != null && ch.isWritable();
  }

  void autoRead(boolean on) {
    if (ch != null && !detached && ch.config().isAutoRead() != on) {
      ch.config().setAutoRead(on);
    }
  }

  void responseEnded(boolean responseKeepAlive) {
    responseEnded = true;
    keepAlive &= responseKeepAlive;
    maybeRelease();
  }

  private void maybeRelease() {
    if (requestEnded && responseEnded && ch != null && !detached && !failed) {
      detached = true;
      if (keepAlive) {
        pool.release(ch, address);
      } else {
        ch.pipeline().get(UpstreamHandler.class).detach();
        ch.close();
      }
    }
  }

  /** Drops the connection (the exchange ended early): the model server sees the request cut. */
  void abort() {
    failed = true;
    releasePending();
    if (ch != null && !detached) {
      detached = true;
      ch.pipeline().get(UpstreamHandler.class).detach();
      ch.close();
    }
  }

  private void releasePending() {
    pending.forEach(ReferenceCountUtil::release);
    pending.clear();
  }
}
