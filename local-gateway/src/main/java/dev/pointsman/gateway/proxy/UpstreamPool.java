package dev.pointsman.gateway.proxy;

import dev.pointsman.gateway.config.HostPort;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * HTTP/1.1 keep-alive connections to model servers (and, for h2c pools, streams on {@link
 * H2cUpstreams}), pooled per event loop and per address so that a connection is only ever used on
 * the loop of the request that holds it (no locks, no thread hops). At most {@link
 * #MAX_IDLE_PER_HOST} idle connections are kept per loop and address. Thread-safe: each loop's pool
 * is touched only from that loop.
 */
final class UpstreamPool {
  static final int MAX_IDLE_PER_HOST = 64;

  private final Bootstrap bootstrap;
  private final Map<EventLoop, Map<HostPort, ArrayDeque<Channel>>> idle = new ConcurrentHashMap<>();
  private final H2cUpstreams h2c;

  UpstreamPool(Duration connectTimeout) {
    this.h2c = new H2cUpstreams(connectTimeout);
    this.bootstrap =
        new Bootstrap()
            .channel(NioSocketChannel.class)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) connectTimeout.toMillis())
            .option(ChannelOption.TCP_NODELAY, true)
            .handler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline().addLast(new HttpClientCodec(), new UpstreamHandler());
                  }
                });
  }

  /** An idle connection to {@code target} on {@code loop}, or a new one. Call on {@code loop}. */
  Future<Channel> acquire(EventLoop loop, HostPort target) {
    ArrayDeque<Channel> q = queue(loop, target);
    for (Channel ch = q.pollLast(); ch != null; ch = q.pollLast()) {
      if (ch.isActive()) {
        return loop.newSucceededFuture(ch);
      }
    }
    Promise<Channel> promise = loop.newPromise();
    ChannelFuture f = bootstrap.clone(loop).connect(target.toSocketAddress());
    f.addListener(
        done -> {
          if (done.isSuccess()) {
            f.channel().closeFuture().addListener(x -> q.remove(f.channel()));
            promise.setSuccess(f.channel());
          } else {
            promise.setFailure(done.cause());
          }
        });
    return promise;
  }

  /**
   * A new HTTP/2 cleartext stream to {@code target} ({@link H2cUpstreams}). Call on {@code loop}.
   */
  Future<Channel> acquireH2cStream(EventLoop loop, HostPort target) {
    return h2c.openStream(loop, target);
  }

  /** Returns a connection whose exchange is complete; call on its loop. An h2c stream is closed. */
  void release(Channel ch, HostPort target) {
    ch.pipeline().get(UpstreamHandler.class).detach();
    if (ch instanceof Http2StreamChannel) {
      ch.close(); // its exchange is over; the connection under it stays
      return;
    }
    ch.config().setAutoRead(true);
    ArrayDeque<Channel> q = queue(ch.eventLoop(), target);
    if (!ch.isActive() || q.size() >= MAX_IDLE_PER_HOST) {
      ch.close();
      return;
    }
    q.addLast(ch);
  }

  private ArrayDeque<Channel> queue(EventLoop loop, HostPort target) {
    return idle.computeIfAbsent(loop, l -> new HashMap<>())
        .computeIfAbsent(target, t -> new ArrayDeque<>());
  }
}
