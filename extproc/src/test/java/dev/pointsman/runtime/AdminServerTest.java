package dev.pointsman.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AdminServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final AtomicBoolean ready = new AtomicBoolean();
  private final HttpClient client = HttpClient.newHttpClient();
  private Metrics metrics;
  private AdminServer admin;

  @BeforeEach
  void start() {
    metrics = Metrics.create("pointsman-test");
    metrics.registry().counter("test.requests", "outcome", "ok").increment(3);
    admin =
        new AdminServer(new AdminServerConfig(0, "127.0.0.1"), metrics.registry(), ready::get)
            .register("/debug/decisions", () -> Map.of("decisions", List.of("pod-a", "pod-b")))
            .register(
                "/debug/broken",
                () -> {
                  throw new IllegalStateException("boom");
                })
            .start();
  }

  @AfterEach
  void stop() {
    client.close();
    admin.close();
    metrics.close();
  }

  @Test
  void metricsServesPrometheusTextWithOwnAndJvmMeters() throws Exception {
    var response = get("/metrics", "*/*");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type"))
        .hasValue("text/plain; version=0.0.4; charset=utf-8");
    assertThat(response.body())
        .contains("test_requests_total{app=\"pointsman-test\",outcome=\"ok\"} 3")
        .contains("jvm_memory_used_bytes")
        .contains("jvm_threads_live_threads")
        .contains("process_uptime_seconds")
        .contains("system_cpu_count");
  }

  @Test
  void metricsServesOpenMetricsWhenAsked() throws Exception {
    var response = get("/metrics", "application/openmetrics-text; version=1.0.0,*/*;q=0.1");

    assertThat(response.headers().firstValue("Content-Type"))
        .hasValue("application/openmetrics-text; version=1.0.0; charset=utf-8");
    assertThat(response.body()).contains("test_requests_total").endsWith("# EOF\n");
  }

  @Test
  void healthzIsUpAndReadyzFollowsSupplier() throws Exception {
    assertThat(get("/healthz", "*/*").statusCode()).isEqualTo(200);
    assertThat(get("/readyz", "*/*").statusCode()).isEqualTo(503);

    ready.set(true);

    assertThat(get("/readyz", "*/*").statusCode()).isEqualTo(200);
  }

  @Test
  void readyzDetailIsShownWithoutChangingTheStatus() throws Exception {
    admin.readyDetail(() -> "replication: alone, members 1");

    var notReady = get("/readyz", "*/*");
    ready.set(true);
    var isReady = get("/readyz", "*/*");

    assertThat(notReady.statusCode()).isEqualTo(503);
    assertThat(notReady.body()).isEqualTo("not ready\nreplication: alone, members 1\n");
    assertThat(isReady.statusCode()).isEqualTo(200);
    assertThat(isReady.body()).isEqualTo("ready\nreplication: alone, members 1\n");
  }

  @Test
  void registeredEndpointRendersJson() throws Exception {
    var response = get("/debug/decisions", "application/json");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(JSON.readTree(response.body()).path("decisions").get(1).asText()).isEqualTo("pod-b");
  }

  @Test
  void errorsAreJsonInOpenAiFormat() throws Exception {
    var missing = get("/nope", "*/*");
    var post =
        client.send(
            request("/metrics").POST(HttpRequest.BodyPublishers.ofString("x")).build(),
            HttpResponse.BodyHandlers.ofString());
    var broken = get("/debug/broken", "*/*");

    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(error(missing).path("code").asText()).isEqualTo("not_found");
    assertThat(post.statusCode()).isEqualTo(405);
    assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
    assertThat(error(post).path("message").asText()).contains("expected GET or HEAD");
    assertThat(broken.statusCode()).isEqualTo(500);
    assertThat(error(broken).path("type").asText()).isEqualTo("server_error");
  }

  @Test
  void headGetsHeadersOnlyAndDuplicatePathsAreRejected() throws Exception {
    var head =
        client.send(
            request("/healthz").method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(head.body()).isEmpty();
    assertThatThrownBy(() -> admin.register("/metrics", Map::of))
        .hasMessage("admin path: /metrics (expected an unused path)");
    assertThatThrownBy(() -> admin.register("debug", Map::of))
        .hasMessageContaining("expected to start with /");
  }

  private HttpResponse<String> get(String path, String accept) throws Exception {
    return client.send(
        request(path).header("Accept", accept).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + admin.port() + path));
  }

  private static JsonNode error(HttpResponse<String> response) throws Exception {
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
    return JSON.readTree(response.body()).path("error");
  }
}
