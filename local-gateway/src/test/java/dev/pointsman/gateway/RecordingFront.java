package dev.pointsman.gateway;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Stands in front of one simulated pod and records every request it passes on (method and path as
 * received), so a test can say what reached the pod. Non-streamed traffic only.
 */
final class RecordingFront implements AutoCloseable {
  private final HttpServer server;
  private final HttpClient client = HttpClient.newHttpClient();
  private final String pod;
  private final List<String> seen = new CopyOnWriteArrayList<>();

  RecordingFront(String podUrl) throws IOException {
    this.pod = podUrl;
    this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::forward);
    server.start();
  }

  String address() {
    return "127.0.0.1:" + server.getAddress().getPort();
  }

  /** Every request that reached the pod, as {@code METHOD path}. */
  List<String> seen() {
    return List.copyOf(seen);
  }

  /** The requests that reached the pod other than the picker's scrapes. */
  List<String> seenBesidesScrapes() {
    return seen.stream()
        .filter(r -> !r.equals("GET /metrics") && !r.equals("GET /v1/models"))
        .toList();
  }

  private void forward(HttpExchange ex) throws IOException {
    try (ex) {
      String method = ex.getRequestMethod();
      String path = ex.getRequestURI().getRawPath();
      seen.add(method + " " + path);
      byte[] body = ex.getRequestBody().readAllBytes();
      HttpRequest.Builder req =
          HttpRequest.newBuilder(URI.create(pod + ex.getRequestURI().getRawPath()))
              .method(method, HttpRequest.BodyPublishers.ofByteArray(body));
      String type = ex.getRequestHeaders().getFirst("content-type");
      if (type != null) {
        req.header("content-type", type);
      }
      HttpResponse<byte[]> res = client.send(req.build(), HttpResponse.BodyHandlers.ofByteArray());
      res.headers()
          .map()
          .forEach(
              (name, values) -> {
                if (name.equalsIgnoreCase("content-type") || name.startsWith("x-pointsman")) {
                  ex.getResponseHeaders().put(name, values);
                }
              });
      byte[] out = res.body();
      ex.sendResponseHeaders(res.statusCode(), out.length == 0 ? -1 : out.length);
      ex.getResponseBody().write(out);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      ex.sendResponseHeaders(502, -1);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
