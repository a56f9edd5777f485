package dev.pointsman.picker.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.extproc.testing.Replies;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.picker.config.PrefixIndexSection;
import dev.pointsman.picker.testing.PickerChannels;
import dev.pointsman.testing.Await;
import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The whole picker over real sockets: TLS gRPC ext_proc, scraping real HTTP {@code /metrics}, the
 * admin server's Prometheus exposition and decision log.
 */
class RealSocketTest {
  private final List<HttpServer> pods = new ArrayList<>();
  private final List<AtomicBoolean> metricsUp = new ArrayList<>();
  private PickerApp app;
  private ManagedChannel channel;

  @BeforeEach
  void setUp() throws Exception {
    for (int i = 0; i < 2; i++) {
      startPod();
    }
    String yaml =
        """
        grpc: {port: 0, host: 127.0.0.1}
        admin: {port: 0, host: 127.0.0.1}
        scrape: {intervalMillis: 20, timeoutMillis: 200, unavailableAfterMillis: 300}
        pools:
          - name: gpu-a
            engine: vllm
            models: [llama-3-8b]
            endpoints:
              - {address: "127.0.0.1:%d", labels: {gpu: H100-80}}
              - {address: "127.0.0.1:%d", labels: {gpu: H100-80}}
        """
            .formatted(port(0), port(1));
    app = new PickerApp(PickerConfig.parse(yaml), null).start();
    channel = PickerChannels.trusting(app);
    Await.until("the picker is ready", app::ready);
  }

  private void startPod() throws Exception {
    HttpServer pod = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    AtomicBoolean up = new AtomicBoolean(true);
    pod.createContext(
        "/metrics",
        ex -> {
          byte[] body =
              ("vllm:num_requests_waiting{model_name=\"llama-3-8b\",engine=\"0\"} 0\n"
                      + "vllm:num_requests_running{model_name=\"llama-3-8b\",engine=\"0\"} 1\n"
                      + "vllm:kv_cache_usage_perc{model_name=\"llama-3-8b\",engine=\"0\"} 0.2\n")
                  .getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(up.get() ? 200 : 503, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    pod.start();
    pods.add(pod);
    metricsUp.add(up);
  }

  private int port(int i) {
    return pods.get(i).getAddress().getPort();
  }

  @AfterEach
  void tearDown() throws Exception {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    if (app != null) {
      app.close();
    }
    pods.forEach(p -> p.stop(0));
  }

  @Test
  void routesOverTlsAndExposesMetricsHealthAndDecisions() throws Exception {
    HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(channel);
    HealthCheckRequest extProc =
        HealthCheckRequest.newBuilder().setService(ExtProcService.SERVICE_NAME).build();
    Await.until(
        "the ext_proc service reports SERVING once the pool is scraped",
        () -> health.check(extProc).getStatus() == HealthCheckResponse.ServingStatus.SERVING);

    EnvoyReplay s = EnvoyReplay.open(channel);
    s.requestHeaders("POST", "/v1/chat/completions", false, "x-request-id", "abc-1");
    s.requestBodyChunked(Replies.chat("llama-3-8b", "hello over a real socket", false), 40);
    Map<String, String> set = Replies.setHeaders(s.next().getRequestHeaders().getResponse());
    assertThat(set.get("x-gateway-destination-endpoint"))
        .isIn("127.0.0.1:" + port(0), "127.0.0.1:" + port(1));
    s.next();
    s.responseHeaders(200, true, null);
    s.next();
    s.halfClose();
    assertThat(s.awaitEnd()).isTrue();

    HttpClient http = HttpClient.newHttpClient();
    String metrics = get(http, "/metrics");
    assertThat(metrics)
        .contains("inference_extension_scheduler_e2e_duration_seconds_bucket")
        .contains(
            "pointsman_decisions_total{app=\"pointsman-picker\",pool=\"gpu-a\",result=\"routed\"} 1.0")
        .contains("inference_pool_ready_pods{app=\"pointsman-picker\",name=\"gpu-a\"} 2.0")
        // the learned models' errors are exported (NaN until a streamed response taught them)
        .contains("pointsman_latency_model_mape{app=\"pointsman-picker\"}")
        .contains("pointsman_tpot_model_mape{app=\"pointsman-picker\"}")
        // the prefix index's size against its total bound, by default from this JVM's heap
        .contains("pointsman_prefix_index_blocks{app=\"pointsman-picker\"}")
        .contains("pointsman_prefix_index_keys{app=\"pointsman-picker\"}")
        .contains("pointsman_prefix_index_wanted_blocks{app=\"pointsman-picker\"}");
    assertThat(sample(metrics, "pointsman_prefix_index_max_blocks{app=\"pointsman-picker\"}"))
        .isEqualTo(
            (double) PrefixIndexSection.DEFAULTS.maxBlocks(Runtime.getRuntime().maxMemory()));
    JsonNode decisions = new ObjectMapper().readTree(get(http, "/debug/decisions"));
    assertThat(decisions.get(0).path("requestId").asText()).isEqualTo("abc-1");
    assertThat(decisions.get(0).path("candidates")).hasSize(2);
    assertThat(decisions.get(0).path("candidates").get(0).path("scores").has("prefix-cache-scorer"))
        .isTrue();
  }

  @Test
  void anEndpointWhoseMetricsFailStopsReceivingRequests() {
    metricsUp.get(0).set(false);
    Await.until("endpoint 0 is unavailable", () -> app.datastore().available("gpu-a") == 1);
    for (int i = 0; i < 10; i++) {
      EnvoyReplay s = EnvoyReplay.open(channel);
      s.requestHeaders("POST", "/v1/completions", false);
      s.requestBody(
          ("{\"model\":\"llama-3-8b\",\"prompt\":\"p" + i + "\"}").getBytes(StandardCharsets.UTF_8),
          true);
      assertThat(Replies.setHeaders(s.next().getRequestHeaders().getResponse()))
          .containsEntry("x-gateway-destination-endpoint", "127.0.0.1:" + port(1));
      s.cancel();
    }
    metricsUp.get(0).set(true);
    Await.until("endpoint 0 recovers", () -> app.datastore().available("gpu-a") == 2);
  }

  @Test
  void onShutdownItReportsNotReadyFirstServesThroughTheGraceThenStops() throws Exception {
    HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(channel);
    Await.until(
        "the ext_proc service reports SERVING",
        () ->
            status(health, ExtProcService.SERVICE_NAME)
                == HealthCheckResponse.ServingStatus.SERVING);
    EnvoyReplay inFlight = EnvoyReplay.open(channel);
    inFlight.requestHeaders("POST", "/v1/chat/completions", false);
    inFlight.requestBody(Replies.chat("llama-3-8b", "started before", true), true);
    inFlight.next(2);

    var paused = new CountDownLatch(1);
    var resume = new CountDownLatch(1);
    var closed = new CountDownLatch(1);
    PickerApp closing = app;
    Thread.ofPlatform()
        .start(
            () -> {
              closing.drainAndClose(
                  grace -> {
                    assertThat(grace).isEqualTo(java.time.Duration.ofSeconds(12));
                    paused.countDown();
                    resume.await();
                  });
              closed.countDown();
            });
    assertThat(paused.await(10, TimeUnit.SECONDS)).isTrue();

    HttpClient http = HttpClient.newHttpClient();
    assertThat(status(http, "/readyz")).isEqualTo(503);
    assertThat(status(health, ExtProcService.SERVICE_NAME))
        .isEqualTo(HealthCheckResponse.ServingStatus.NOT_SERVING);
    assertThat(status(health, "readiness"))
        .isEqualTo(HealthCheckResponse.ServingStatus.NOT_SERVING);
    assertThat(status(health, "liveness")).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
    assertThat(app.ready()).isFalse();

    EnvoyReplay fresh = EnvoyReplay.open(channel);
    fresh.requestHeaders("POST", "/v1/chat/completions", false);
    fresh.requestBody(Replies.chat("llama-3-8b", "started during the grace", false), true);
    assertThat(fresh.next().hasRequestHeaders()).as("a new stream is still routed").isTrue();
    fresh.next();
    fresh.responseHeaders(200, true, null);
    fresh.next();
    fresh.halfClose();
    assertThat(fresh.awaitEnd()).isTrue();
    inFlight.responseHeaders(200, false, null);
    inFlight.next();
    inFlight.responseBody("data: [DONE]\n\n", true);
    inFlight.next();
    inFlight.halfClose();
    assertThat(inFlight.awaitEnd()).isTrue();
    assertThat(closed.getCount()).as("still serving until the grace ends").isEqualTo(1);

    resume.countDown();
    assertThat(closed.await(20, TimeUnit.SECONDS)).isTrue();
    assertThat(app.inFlight().liveRequests()).isZero();
    app = null; // closed
  }

  private static HealthCheckResponse.ServingStatus status(
      HealthGrpc.HealthBlockingStub health, String service) {
    return health
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .check(HealthCheckRequest.newBuilder().setService(service).build())
        .getStatus();
  }

  private int status(HttpClient http, String path) throws Exception {
    return http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.adminPort() + path))
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  private String get(HttpClient http, String path) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.adminPort() + path))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return r.body();
  }

  /** The value of the sample named {@code series} (name and labels) in a Prometheus exposition. */
  private static double sample(String exposition, String series) {
    return exposition
        .lines()
        .filter(l -> l.startsWith(series + " "))
        .mapToDouble(l -> Double.parseDouble(l.substring(series.length() + 1).trim()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no sample " + series + " in\n" + exposition));
  }
}
