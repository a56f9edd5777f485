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

/**
 * A loopback {@code /metrics} server whose answer a test can change: body, status, stall; and a
 * {@code /v1/models} listing (404 until {@link #listing} sets one).
 */
final class MetricsServer implements AutoCloseable {

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger maxInFlight = new AtomicInteger();
  private volatile String body = "";
  private volatile String prometheusBody = "";
  private volatile int status = 200;
  private volatile CountDownLatch stall = new CountDownLatch(0);
  private final AtomicInteger listings = new AtomicInteger();
  private volatile String listingBody;
  private volatile int listingStatus = 404;

  MetricsServer() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(threads);
    server.createContext("/metrics", this::handle);
    server.createContext("/prometheus/metrics", this::handlePrometheus);
    server.createContext("/v1/models", this::handleListing);
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

  /** Serves {@code newBody} on {@code /prometheus/metrics} (trtllm-serve's text page). */
  MetricsServer servingPrometheus(String newBody) {
    prometheusBody = newBody;
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

  /** Serves {@code body} on {@code /v1/models} with {@code status}. */
  MetricsServer listing(int status, String body) {
    listingStatus = status;
    listingBody = body;
    return this;
  }

  /** An OpenAI model list: base model {@code m} and {@code adapters} on top of it. */
  static String modelList(String... adapters) {
    StringBuilder sb = new StringBuilder("{\"object\":\"list\",\"data\":[");
    sb.append("{\"id\":\"m\",\"object\":\"model\",\"root\":\"m\",\"parent\":null}");
    for (String a : adapters) {
      sb.append(",{\"id\":\"").append(a).append("\",\"object\":\"model\",\"parent\":\"m\"}");
    }
    return sb.append("]}").toString();
  }

  int listings() {
    return listings.get();
  }

  int requests() {
    return requests.get();
  }

  int maxInFlight() {
    return maxInFlight.get();
  }

  private void handlePrometheus(HttpExchange exchange) throws IOException {
    requests.incrementAndGet();
    try (exchange) {
      byte[] bytes = prometheusBody.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4");
      exchange.sendResponseHeaders(200, bytes.length == 0 ? -1 : bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
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

  private void handleListing(HttpExchange exchange) throws IOException {
    listings.incrementAndGet();
    try (exchange) {
      String b = listingBody;
      byte[] bytes = (b == null ? "" : b).getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(listingStatus, bytes.length == 0 ? -1 : bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  @Override
  public void close() {
    release();
    server.stop(0);
    threads.shutdownNow();
  }
}
