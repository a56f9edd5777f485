package dev.pointsman.picker.scrape;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A loopback {@code /metrics} server whose answer a test can change: body, status, stall. */
final class MetricsServer implements AutoCloseable {

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger maxInFlight = new AtomicInteger();
  private volatile String body = "";
  private volatile int status = 200;
  private volatile CountDownLatch stall = new CountDownLatch(0);

  MetricsServer() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(threads);
    server.createContext("/metrics", this::handle);
    server.start();
  }

  String address() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  MetricsServer serving(String newBody) {
    body = newBody;
    status = 200;
    return this;
  }

  MetricsServer failingWith(int newStatus) {
    status = newStatus;
    return this;
  }

  /** Holds every request until {@link #release()}. */
  MetricsServer stalling() {
    stall = new CountDownLatch(1);
    return this;
  }

  void release() {
    stall.countDown();
  }

  int requests() {
    return requests.get();
  }

  int maxInFlight() {
    return maxInFlight.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    requests.incrementAndGet();
    maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
    try (exchange) {
      if (!stall.await(10, TimeUnit.SECONDS)) {
        return;
      }
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4");
      exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException clientWentAway) {
      // the scraper timed out and closed the connection
    } finally {
      inFlight.decrementAndGet();
    }
  }

  @Override
  public void close() {
    release();
    server.stop(0);
    threads.shutdownNow();
  }
}
