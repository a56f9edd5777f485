package dev.pointsman.gateway.bench;

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
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * A model server that answers at once: a one-token completion with usage, and vLLM-named metrics
 * for the picker to scrape. Isolates the gateway's and picker's overhead from generation time.
 */
final class StubPod implements AutoCloseable {
  private static final String COMPLETION =
      "{\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"model\":\"llama-8b\","
          + "\"choices\":[{\"index\":0,\"text\":\" ok\",\"finish_reason\":\"length\"}],"
          + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":1,\"total_tokens\":6}}";
  private static final String METRICS =
      "vllm:num_requests_waiting{model_name=\"llama-8b\",engine=\"0\"} 0\n"
          + "vllm:num_requests_running{model_name=\"llama-8b\",engine=\"0\"} 0\n"
          + "vllm:kv_cache_usage_perc{model_name=\"llama-8b\",engine=\"0\"} 0.1\n";

  private final EventLoopGroup group;
  private final Channel server;

  StubPod(EventLoopGroup group) {
    this.group = group;
    this.server =
        new ServerBootstrap()
            .group(group)
            .channel(NioServerSocketChannel.class)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline()
                        .addLast(
                            new HttpServerCodec(),
                            new HttpObjectAggregator(1 << 20),
                            new Handler());
                  }
                })
            .bind("127.0.0.1", 0)
            .syncUninterruptibly()
            .channel();
  }

  static EventLoopGroup group() {
    return new NioEventLoopGroup(1);
  }

  String address() {
    return "127.0.0.1:" + ((InetSocketAddress) server.localAddress()).getPort();
  }

  @Override
  public void close() {
    server.close().syncUninterruptibly();
  }

  EventLoopGroup eventLoops() {
    return group;
  }

  private static final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
      boolean metrics = req.uri().startsWith("/metrics");
      byte[] body = (metrics ? METRICS : COMPLETION).getBytes(StandardCharsets.UTF_8);
      FullHttpResponse res =
          new DefaultFullHttpResponse(
              HttpVersion.HTTP_1_1, HttpResponseStatus.OK, Unpooled.wrappedBuffer(body));
      res.headers()
          .set(HttpHeaderNames.CONTENT_TYPE, metrics ? "text/plain" : "application/json")
          .set(HttpHeaderNames.CONTENT_LENGTH, body.length)
          .set("x-pointsman-served-by", "stub");
      ctx.writeAndFlush(res);
    }
  }
}
