package dev.pointsman.picker.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.extproc.testing.Replies;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.config.PickerConfig;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A refused path is counted once in the picker's own exposition, as an operator reads it. */
class RefusedPathMetricTest {
  private PickerApp app;
  private ManagedChannel channel;

  @AfterEach
  void stop() {
    if (channel != null) {
      channel.shutdownNow();
    }
    if (app != null) {
      app.close();
    }
  }

  @Test
  void eachRefusalIsCountedOnceByReasonAndStatus() throws Exception {
    app =
        new PickerApp(
                PickerConfig.parse(
                    """
                    grpc: {port: 0, host: 127.0.0.1, tls: plaintext, drainSeconds: 0}
                    admin: {port: 0, host: 127.0.0.1}
                    defaultModel: m
                    pools: [{name: a, models: [m], endpoints: [{address: '127.0.0.1:9'}]}]
                    """),
                null)
            .start();
    channel = NettyChannelBuilder.forAddress("127.0.0.1", app.grpcPort()).usePlaintext().build();

    for (String path : new String[] {"/v1/load_lora_adapter", "/v1/../admin/faults", "/metrics"}) {
      EnvoyReplay s = EnvoyReplay.open(channel).requestHeaders("POST", path, false);
      Replies.assertError(s.next(), 404, "unknown_path");
      assertThat(s.awaitEnd()).isTrue();
    }
    EnvoyReplay escaped =
        EnvoyReplay.open(channel).requestHeaders("POST", "/v1/chat%2Fcompletions", false);
    Replies.assertError(escaped.next(), 400, "invalid_path");

    String metrics = metrics();
    assertThat(metrics)
        .contains(
            "inference_objective_request_error_total{app=\"pointsman-picker\",error_code=\"unknown_path\",status=\"404\"} 3.0")
        .contains(
            "inference_objective_request_error_total{app=\"pointsman-picker\",error_code=\"invalid_path\",status=\"400\"} 1.0");
    assertThat(metrics).doesNotContain("pointsman_decisions_total");
  }

  private String metrics() throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.adminPort() + "/metrics"))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }
}
