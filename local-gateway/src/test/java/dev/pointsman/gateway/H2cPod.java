package dev.pointsman.gateway;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2StreamChannel;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A model server that speaks only HTTP/2 cleartext with prior knowledge (Netty's HTTP/2 codec, no
 * HTTP/1.1 at all): every stream gets an SSE completion in two DATA frames. It records each
 * request's headers and counts the TCP connections it accepts.
 */
final class H2cPod implements AutoCloseable {
  final List<HttpHeaders> requests = new CopyOnWriteArrayList<>();
  final List<String> bodies = new CopyOnWriteArrayList<>();
  final AtomicInteger connections = new AtomicInteger();
  private final EventLoopGroup group = new NioEventLoopGroup(1);
  private final Channel server;

  H2cPod() {
    server =
        new ServerBootstrap()
            .group(group)
            .channel(NioServerSocketChannel.class)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    connections.incrementAndGet();
                    ch.pipeline()
                        .addLast(
                            Http2FrameCodecBuilder.forServer().build(),
                            new Http2MultiplexHandler(
                                new ChannelInitializer<Http2StreamChannel>() {
                                  @Override
                                  protected void initChannel(Http2StreamChannel stream) {
                                    stream
                                        .pipeline()
                                        .addLast(
                                            new Http2StreamFrameToHttpObjectCodec(true),
                                            new HttpObjectAggregator(1 << 20),
                                            new Completion());
                                  }
                                }));
                  }
                })
            .bind("127.0.0.1", 0)
            .syncUninterruptibly()
            .channel();
  }

  String address() {
    return "127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort();
  }

  @Override
  public void close() {
    server.close().syncUninterruptibly();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  private final class Completion extends SimpleChannelInboundHandler<FullHttpRequest> {
    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
      requests.add(req.headers().copy());
      bodies.add(req.content().toString(StandardCharsets.UTF_8));
      var res = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
      res.headers()
          .set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream")
          .set("x-pointsman-served-by", "h2c");
      ctx.write(res);
      ctx.writeAndFlush(new DefaultHttpContent(Unpooled.copiedBuffer(event(" over"), UTF)));
      ctx.writeAndFlush(
          new DefaultLastHttpContent(
              Unpooled.copiedBuffer(event(" h2c") + "data: [DONE]\n\n", UTF)));
    }
  }

  private static final java.nio.charset.Charset UTF = StandardCharsets.UTF_8;

  private static String event(String text) {
    return "data: {\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"model\":\"llama-8b\","
        + "\"choices\":[{\"index\":0,\"text\":\""
        + text
        + "\",\"finish_reason\":null}]}\n\n";
  }
}
