package dev.pointsman.runtime;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin HTTP listener: {@code /metrics} (Prometheus text, or OpenMetrics when the {@code
 * Accept} header asks for it), {@code /healthz} (200 once started), {@code /readyz} (200 or 503)
 * and JSON endpoints added with {@link #register}. Unknown paths get a JSON 404, methods other than
 * GET and HEAD a JSON 405. Served by two daemon threads. Thread-safe.
 */
public final class AdminServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AdminServer.class);

  private final AdminServerConfig config;
  private final ObjectMapper mapper;
  private final Map<String, Function<HttpExchange, HttpReply>> routes = new ConcurrentHashMap<>();
  private final ExecutorService executor = DaemonPools.fixed("admin", 2);
  private volatile HttpServer server;
  private volatile Supplier<String> readyDetail = () -> "";

  /**
   * An admin server, not yet started.
   *
   * @param registry scraped by {@code /metrics}
   * @param ready answers {@code /readyz}
   * @param mapper renders the JSON endpoints
   */
  public AdminServer(
      AdminServerConfig config,
      PrometheusMeterRegistry registry,
      BooleanSupplier ready,
      ObjectMapper mapper) {
    this.config = Objects.requireNonNull(config, "config");
    this.mapper = Objects.requireNonNull(mapper, "mapper");
    routes.put("/metrics", exchange -> MetricsScrape.reply(registry, exchange));
    routes.put("/healthz", exchange -> HttpReply.text(200, "ok\n"));
    routes.put(
        "/readyz",
        exchange ->
            ready.getAsBoolean()
                ? HttpReply.text(200, "ready\n" + detail())
                : HttpReply.text(503, "not ready\n" + detail()));
  }

  /**
   * Adds lines of detail under {@code /readyz}'s first line ("ready" or "not ready"), such as the
   * state of a degraded but serving part; they never change the status code.
   */
  public AdminServer readyDetail(Supplier<String> detail) {
    this.readyDetail = Objects.requireNonNull(detail, "detail");
    return this;
  }

  private String detail() {
    String d = readyDetail.get();
    return d == null || d.isEmpty() ? "" : d.endsWith("\n") ? d : d + "\n";
  }

  /** An admin server with a default {@link ObjectMapper}. */
  public AdminServer(
      AdminServerConfig config, PrometheusMeterRegistry registry, BooleanSupplier ready) {
    this(config, registry, ready, new ObjectMapper());
  }

  /** Serves the JSON rendering of {@code jsonBody.get()} at {@code path}, on every GET. */
  public AdminServer register(String path, Supplier<Object> jsonBody) {
    if (path == null || !path.startsWith("/")) {
      throw new IllegalArgumentException("admin path: '" + path + "' (expected to start with /)");
    }
    Function<HttpExchange, HttpReply> route =
        exchange -> HttpReply.json(mapper, 200, jsonBody.get());
    if (routes.putIfAbsent(path, route) != null) {
      throw new IllegalArgumentException("admin path: " + path + " (expected an unused path)");
    }
    return this;
  }

  /** Binds and starts serving. */
  public synchronized AdminServer start() {
    if (server != null) {
      throw new IllegalStateException("admin server: already started (expected new)");
    }
    try {
      var bound = HttpServer.create(new InetSocketAddress(config.host(), config.port()), 0);
      bound.createContext("/", this::handle);
      bound.setExecutor(executor);
      bound.start();
      server = bound;
    } catch (IOException e) {
      throw new UncheckedIOException(
          "admin: cannot listen on " + config.host() + ":" + config.port() + " (" + e + ")", e);
    }
    LOG.info("admin listening on {}:{}", config.host(), port());
    return this;
  }

  /** The bound port (the ephemeral one when configured with 0). */
  public int port() {
    HttpServer current = server;
    if (current == null) {
      throw new IllegalStateException("admin server: not started (expected start() first)");
    }
    return current.getAddress().getPort();
  }

  /**
   * Stops listening and stops the threads at once. Requests in progress are cut off: the JDK server
   * otherwise waits out the whole grace delay while a client holds an idle keep-alive connection,
   * and a cut-off scrape or probe is simply retried.
   */
  @Override
  public synchronized void close() {
    if (server != null) {
      server.stop(0);
    }
    executor.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      send(exchange, reply(exchange));
    }
  }

  private HttpReply reply(HttpExchange exchange) {
    String path = exchange.getRequestURI().getPath();
    var route = routes.get(path);
    if (route == null) {
      return HttpReply.error(mapper, 404, "no admin endpoint at " + path, "not_found");
    }
    String method = exchange.getRequestMethod();
    if (!method.equals("GET") && !method.equals("HEAD")) {
      exchange.getResponseHeaders().set("Allow", "GET, HEAD");
      return HttpReply.error(
          mapper, 405, method + " " + path + " (expected GET or HEAD)", "method_not_allowed");
    }
    try {
      return route.apply(exchange);
    } catch (RuntimeException e) {
      LOG.warn("admin endpoint {} failed: {}", path, e.toString());
      return HttpReply.error(mapper, 500, "admin endpoint " + path + " failed", "internal_error");
    }
  }

  private static void send(HttpExchange exchange, HttpReply reply) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", reply.contentType());
    if (exchange.getRequestMethod().equals("HEAD")) {
      exchange.sendResponseHeaders(reply.status(), -1);
      return;
    }
    exchange.sendResponseHeaders(reply.status(), reply.body().length);
    exchange.getResponseBody().write(reply.body());
  }
}
