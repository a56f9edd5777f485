package dev.pointsman.picker.scrape;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A keep-alive HTTPS server (plain HTTP without a context) answering {@code /metrics} and {@code
 * /v1/models}, and what is not HTTP with 400 and a close, as uvicorn does.
 */
public final class MetricsHttpsServer implements AutoCloseable {
  /** The exposition served at every path but {@code /v1/models}. */
  public static final String VLLM =
      "vllm:num_requests_waiting{model_name=\"m\"} 2\nvllm:num_requests_running 5\n"
          + "vllm:kv_cache_usage_perc 0.5\n";

  /** The model listing: model {@code m} and one adapter of it. */
  public static final String MODELS =
      "{\"object\":\"list\",\"data\":[{\"id\":\"m\",\"object\":\"model\"},"
          + "{\"id\":\"sql-lora\",\"object\":\"model\",\"parent\":\"m\"}]}";

  private final EventLoopGroup group = new NioEventLoopGroup(1);
  public final AtomicInteger connections = new AtomicInteger();
  private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
  private final Channel channel;

  /**
   * @param tls the server context, or null for plain HTTP
   */
  public MetricsHttpsServer(SslContext tls) throws InterruptedException {
    channel =
        new ServerBootstrap()
            .group(group)
            .channel(NioServerSocketChannel.class)
            .childHandler(
                new ChannelInitializer<>() {
                  @Override
                  protected void initChannel(Channel ch) {
                    connections.incrementAndGet();
                    if (tls != null) {
                      ch.pipeline().addLast(tls.newHandler(ch.alloc()));
                    }
                    ch.pipeline()
                        .addLast(new HttpServerCodec())
                        .addLast(new HttpObjectAggregator(64 * 1024))
                        .addLast(
                            new SimpleChannelInboundHandler<FullHttpRequest>() {
                              @Override
                              protected void channelRead0(
                                  ChannelHandlerContext ctx, FullHttpRequest req) {
                                if (req.decoderResult().isFailure()) {
                                  ctx.writeAndFlush(
                                          new DefaultFullHttpResponse(
                                              HttpVersion.HTTP_1_1, HttpResponseStatus.BAD_REQUEST))
                                      .addListener(ChannelFutureListener.CLOSE);
                                  return;
                                }
                                requests
                                    .computeIfAbsent(req.uri(), u -> new AtomicInteger())
                                    .incrementAndGet();
                                boolean models = req.uri().equals("/v1/models");
                                byte[] body =
                                    (models ? MODELS : VLLM).getBytes(StandardCharsets.UTF_8);
                                FullHttpResponse res =
                                    new DefaultFullHttpResponse(
                                        HttpVersion.HTTP_1_1,
                                        HttpResponseStatus.OK,
                                        Unpooled.wrappedBuffer(body));
                                res.headers()
                                    .set(
                                        HttpHeaderNames.CONTENT_TYPE,
                                        models ? "application/json" : "text/plain")
                                    .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
                                ctx.writeAndFlush(res);
                              }

                              @Override
                              public void exceptionCaught(
                                  ChannelHandlerContext ctx, Throwable cause) {
                                ctx.close(); // a refused handshake: the client's to report
                              }
                            });
                  }
                })
            .bind("127.0.0.1", 0)
            .sync()
            .channel();
  }

  public String address() {
    return "127.0.0.1:" + ((InetSocketAddress) channel.localAddress()).getPort();
  }

  public int requests(String path) {
    AtomicInteger n = requests.get(path);
    return n == null ? 0 : n.get();
  }

  @Override
  public void close() {
    channel.close().syncUninterruptibly();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
