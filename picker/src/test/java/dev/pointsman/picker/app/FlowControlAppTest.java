package dev.pointsman.picker.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.extproc.testing.Replies;
import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.testing.Await;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The wired picker with {@code flowControl.enabled}: a request for a pod whose scraped queue is
 * full waits with its stream open, and the scrape that shows room dispatches it.
 */
class FlowControlAppTest {
  private final AtomicInteger waiting = new AtomicInteger(50);
  private HttpServer pod;
  private PickerApp app;
  private ManagedChannel channel;

  @AfterEach
  void tearDown() throws Exception {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    if (app != null) {
      app.close();
    }
    if (pod != null) {
      pod.stop(0);
    }
  }

  @Test
  void aRequestWaitsForTheScrapeThatShowsRoom() throws Exception {
    startPod();
    String yaml =
        """
        grpc: {port: 0, host: 127.0.0.1, tls: plaintext}
        admin: {port: 0, host: 127.0.0.1}
        flowControl: {enabled: true, ttlMillis: 60000}
        pools:
          - name: gpu-a
            engine: vllm
            models: [llama-3-8b]
            endpoints: [{address: "127.0.0.1:%d", labels: {gpu: H100-80}}]
        """
            .formatted(pod.getAddress().getPort());
    app = new PickerApp(PickerConfig.parse(yaml), null).start();
    Await.until("the picker is ready", app::ready);
    channel = NettyChannelBuilder.forAddress("127.0.0.1", app.grpcPort()).usePlaintext().build();

    EnvoyReplay s = EnvoyReplay.open(channel);
    s.requestHeaders(
        "POST", "/v1/chat/completions", false, "x-gateway-inference-fairness-id", "team-a");
    s.requestBody(Replies.chat("llama-3-8b", "wait for room", false), true);
    Await.until(
        "the request waits in the picker",
        () ->
            metrics()
                .contains(
                    "inference_extension_flow_control_queue_size{app=\"pointsman-picker\","
                        + "fairness_id=\"team-a\",priority=\"0\"} 1.0"));
    assertThat(s.drainNow()).isEmpty();

    waiting.set(0);

    Map<String, String> set = Replies.setHeaders(s.next().getRequestHeaders().getResponse());
    assertThat(set).containsEntry("x-gateway-destination-endpoint", "127.0.0.1:" + port());
    assertThat(metrics())
        .contains("inference_extension_flow_control_request_queue_duration_seconds_count");
  }

  private int port() {
    return pod.getAddress().getPort();
  }

  private void startPod() throws Exception {
    pod = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    pod.createContext(
        "/metrics",
        ex -> {
          byte[] body =
              ("vllm:num_requests_waiting{model_name=\"llama-3-8b\",engine=\"0\"} "
                      + waiting.get()
                      + "\n"
                      + "vllm:num_requests_running{model_name=\"llama-3-8b\",engine=\"0\"} 1\n"
                      + "vllm:kv_cache_usage_perc{model_name=\"llama-3-8b\",engine=\"0\"} 0.2\n")
                  .getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(200, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    pod.start();
  }

  private String metrics() {
    try {
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + app.adminPort() + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      return r.body();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
