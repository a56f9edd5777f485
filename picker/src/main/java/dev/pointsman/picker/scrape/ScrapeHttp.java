package dev.pointsman.picker.scrape;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The scraper's HTTP/1.1 client: a Netty event loop shared by every target, on which each target
 * keeps one persistent connection per path ({@link HttpConnection}), reused across scrapes and
 * reopened after a failure. Plain HTTP, as the engines serve their metrics by default, or HTTPS
 * with a TLS client context ({@link ScrapeTls}) for endpoints that serve it. The event loop is also
 * a {@link ScheduledExecutorService}: scheduling the scrapes on it ({@link #executor()}) saves a
 * thread hop per scrape.
 *
 * <p>Thread-safe. {@link #close()} stops the event loop.
 */
public final class ScrapeHttp implements AutoCloseable {

  /**
   * The largest response body read, 16 MiB: a vLLM page with many models and histograms is a few
   * hundred kilobytes.
   */
  public static final int DEFAULT_MAX_BODY_BYTES = 16 << 20;

  private final EventLoopGroup group;
  private final Bootstrap template;
  private final int maxBodyBytes;
  private final SslContext tls;
  private final List<Thread> threads = new CopyOnWriteArrayList<>();

  /**
   * @param connectTimeout the connect timeout, 1 ms to 1 minute
   * @param threads event-loop threads, 1 to 64
   * @param maxBodyBytes the largest body read; a longer one fails the request ({@code too_large})
   */
  public ScrapeHttp(Duration connectTimeout, int threads, int maxBodyBytes) {
    this(connectTimeout, threads, maxBodyBytes, null);
  }

  /**
   * @param connectTimeout the connect timeout, 1 ms to 1 minute
   * @param threads event-loop threads, 1 to 64
   * @param maxBodyBytes the largest body read; a longer one fails the request ({@code too_large})
   * @param tls the TLS client context for endpoints serving HTTPS, or null for plain HTTP
   */
  public ScrapeHttp(Duration connectTimeout, int threads, int maxBodyBytes, SslContext tls) {
    Objects.requireNonNull(connectTimeout, "connectTimeout");
    if (connectTimeout.toMillis() < 1 || connectTimeout.compareTo(Duration.ofMinutes(1)) > 0) {
      throw new IllegalArgumentException(
          "scrape connect timeout: " + connectTimeout + " (expected 1ms..1m)");
    }
    if (threads < 1 || threads > 64) {
      throw new IllegalArgumentException("scrape threads: " + threads + " (expected 1..64)");
    }
    if (maxBodyBytes < 1) {
      throw new IllegalArgumentException(
          "scrape max body bytes: " + maxBodyBytes + " (expected >= 1)");
    }
    if (tls != null && !tls.isClient()) {
      throw new IllegalArgumentException("scrape tls: a server context (expected a client's)");
    }
    this.maxBodyBytes = maxBodyBytes;
    this.tls = tls;
    this.group = new NioEventLoopGroup(threads, daemonThreads(this.threads));
    this.template =
        new Bootstrap()
            .channel(NioSocketChannel.class)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) connectTimeout.toMillis())
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.SO_KEEPALIVE, true);
  }

  /** One event-loop thread, {@link #DEFAULT_MAX_BODY_BYTES}, plain HTTP. */
  public static ScrapeHttp create(Duration connectTimeout) {
    return create(connectTimeout, null);
  }

  /**
   * One event-loop thread, {@link #DEFAULT_MAX_BODY_BYTES}; HTTPS with {@code tls}, else plain
   * HTTP.
   */
  public static ScrapeHttp create(Duration connectTimeout, SslContext tls) {
    return new ScrapeHttp(connectTimeout, 1, DEFAULT_MAX_BODY_BYTES, tls);
  }

  /** {@code https} with a TLS context, else {@code http}: what every connection speaks. */
  public String scheme() {
    return tls != null ? "https" : "http";
  }

  /** The event loop, to schedule scrapes on. */
  public ScheduledExecutorService executor() {
    return group;
  }

  /** A connection to {@code host:port} for GETs of {@code path}; nothing is opened yet. */
  HttpConnection connection(String host, int port, String path, String accept) {
    return new HttpConnection(
        template.clone(group.next()), tls, host, port, path, accept, maxBodyBytes);
  }

  /** Closes every connection and stops the event loop. */
  @Override
  public void close() {
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
  }

  /**
   * The CPU time the event-loop threads used so far (where the scrapes run when scheduled there).
   */
  long cpuNanos() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long total = 0;
    for (Thread t : threads) {
      total += Math.max(0, mx.getThreadCpuTime(t.threadId()));
    }
    return total;
  }

  private static ThreadFactory daemonThreads(List<Thread> started) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "pointsman-scrape-" + n.incrementAndGet());
      t.setDaemon(true);
      started.add(t);
      return t;
    };
  }
}
