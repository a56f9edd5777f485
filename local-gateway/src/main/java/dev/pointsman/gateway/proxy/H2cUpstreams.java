package dev.pointsman.gateway.proxy;

import dev.pointsman.gateway.config.HostPort;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamChannelBootstrap;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * HTTP/2 cleartext connections, with prior knowledge (no upgrade), to model servers of pools whose
 * InferencePool says {@code appProtocol: kubernetes.io/h2c}: one connection per event loop and
 * address, every exchange one stream on it. A stream speaks in Netty's HTTP/1.1 objects ({@link
 * Http2StreamFrameToHttpObjectCodec}), so the exchange handles it as it does an HTTP/1.1
 * connection; its end closes the stream, never the connection. A connection that closed or failed
 * is replaced at the next stream. Thread-safe: each loop's map is touched only from that loop.
 */
final class H2cUpstreams {
  private final Bootstrap bootstrap;
  private final Map<EventLoop, Map<HostPort, Future<Channel>>> connections =
      new ConcurrentHashMap<>();

  H2cUpstreams(Duration connectTimeout) {
    this.bootstrap =
        new Bootstrap()
            .channel(NioSocketChannel.class)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) connectTimeout.toMillis())
            .option(ChannelOption.TCP_NODELAY, true)
            .handler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline()
                        .addLast(
                            Http2FrameCodecBuilder.forClient().build(),
                            // streams the server opens (push) are refused by the codec's settings
                            new Http2MultiplexHandler(new ChannelInboundHandlerAdapter()),
                            new CloseOnError());
                  }
                });
  }

  /** A new stream to {@code target} on {@code loop}'s connection to it. Call on {@code loop}. */
  Future<Channel> openStream(EventLoop loop, HostPort target) {
    Map<HostPort, Future<Channel>> byAddress =
        connections.computeIfAbsent(loop, l -> new HashMap<>());
    Future<Channel> connection = byAddress.get(target);
    if (connection == null
        || (connection.isDone() && (!connection.isSuccess() || !connection.getNow().isActive()))) {
      connection = connect(loop, target, byAddress);
      byAddress.put(target, connection);
    }
    Promise<Channel> stream = loop.newPromise();
    connection.addListener(
        (Future<Channel> done) -> {
          if (!done.isSuccess()) {
            stream.setFailure(done.cause());
            return;
          }
          new Http2StreamChannelBootstrap(done.getNow())
              .handler(
                  new ChannelInitializer<Http2StreamChannel>() {
                    @Override
                    protected void initChannel(Http2StreamChannel ch) {
                      ch.pipeline()
                          .addLast(
                              new Http2StreamFrameToHttpObjectCodec(false), new UpstreamHandler());
                    }
                  })
              .open()
              .addListener(
                  (Future<Http2StreamChannel> opened) -> {
                    if (opened.isSuccess()) {
                      stream.setSuccess(opened.getNow());
                    } else {
                      stream.setFailure(opened.cause());
                    }
                  });
        });
    return stream;
  }

  private Future<Channel> connect(
      EventLoop loop, HostPort target, Map<HostPort, Future<Channel>> byAddress) {
    Promise<Channel> promise = loop.newPromise();
    ChannelFuture f = bootstrap.clone(loop).connect(target.toSocketAddress());
    f.addListener(
        done -> {
          if (done.isSuccess()) {
            f.channel().closeFuture().addListener(x -> byAddress.remove(target, promise));
            // Netty completes the connect future before it fires channelActive, where the codec
            // writes the connection preface: a stream opened now would precede it. Hand the
            // connection out in a task of its own, which runs after channelActive.
            loop.execute(() -> promise.setSuccess(f.channel()));
          } else {
            promise.setFailure(done.cause());
          }
        });
    return promise;
  }

  /** A broken connection is closed; its streams see their ends. */
  private static final class CloseOnError extends ChannelInboundHandlerAdapter {
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }
}
