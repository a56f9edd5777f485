package dev.pointsman.bench.scrape;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslContext;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback server answering {@code GET /metrics} with an exposition (keep-alive, Content-Length)
 * and anything else with 404, on several ports, for the scrape and data-path benchmarks: stand-in
 * model servers whose own cost stays small and known. Its event-loop threads are named {@link
 * #THREAD_NAME}, so that their CPU time can be taken out of the process's.
 */
public final class ExpositionServer implements AutoCloseable {

  /** The name of every event-loop thread of the server. */
  public static final String THREAD_NAME = "exposition-server";

  private final List<Thread> threads = new CopyOnWriteArrayList<>();
  private final NioEventLoopGroup group;
  private final List<Channel> channels = new ArrayList<>();
  private final List<Integer> ports = new ArrayList<>();

  ExpositionServer(byte[] body, int portCount, int threadCount) {
    this(java.util.Collections.nCopies(portCount, body), threadCount, null);
  }

  /** One port per exposition in {@code bodies}, in order, served by {@code threadCount} threads. */
  public ExpositionServer(List<byte[]> bodies, int threadCount) {
    this(bodies, threadCount, null);
  }

  /**
   * One port per exposition in {@code bodies}, in order, served by {@code threadCount} threads;
   * over HTTPS with {@code tls} (a server context), else plain HTTP.
   */
  public ExpositionServer(List<byte[]> bodies, int threadCount, SslContext tls) {
    group =
        new NioEventLoopGroup(
            threadCount,
            r -> {
              Thread t = new Thread(r, THREAD_NAME);
              t.setDaemon(true);
              threads.add(t);
              return t;
            });
    ServerBootstrap bootstrap =
        new ServerBootstrap().group(group).channel(NioServerSocketChannel.class);
    for (byte[] body : bodies) {
      ByteBuf content = Unpooled.unreleasableBuffer(Unpooled.wrappedBuffer(body));
      Channel ch =
          bootstrap
              .clone()
              .childHandler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                      if (tls != null) {
                        ch.pipeline().addLast(tls.newHandler(ch.alloc()));
                      }
                      ch.pipeline()
                          .addLast(new HttpServerCodec())
                          .addLast(new HttpObjectAggregator(1 << 16))
                          .addLast(new Answer(content));
                    }
                  })
              .bind(new InetSocketAddress("127.0.0.1", 0))
              .syncUninterruptibly()
              .channel();
      channels.add(ch);
      ports.add(((InetSocketAddress) ch.localAddress()).getPort());
    }
  }

  /** The ports, in the order of the expositions. */
  public List<Integer> ports() {
    return List.copyOf(ports);
  }

  /** CPU time of the server's threads so far. */
  long cpuNanos() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long total = 0;
    for (Thread t : threads) {
      long cpu = mx.getThreadCpuTime(t.threadId());
      total += Math.max(0, cpu);
    }
    return total;
  }

  @Override
  public void close() {
    channels.forEach(Channel::close);
    group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
  }

  private static final class Answer extends SimpleChannelInboundHandler<HttpRequest> {
    private final ByteBuf content;

    Answer(ByteBuf content) {
      this.content = content;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, HttpRequest request) {
      if (!request.uri().equals("/metrics")) {
        FullHttpResponse missing =
            new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NOT_FOUND);
        missing.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
        ctx.writeAndFlush(missing);
        return;
      }
      FullHttpResponse response =
          new DefaultFullHttpResponse(
              HttpVersion.HTTP_1_1, HttpResponseStatus.OK, content.duplicate());
      response
          .headers()
          .set(HttpHeaderNames.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")
          .setInt(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes());
      ctx.writeAndFlush(response);
    }
  }
}
