package dev.pointsman.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.testing.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * LoRA adapters registered on only some pods of a pool (as during an adapter rollout), over real
 * sockets: the picker reads each pod's {@code /v1/models}, sends an adapter's requests only where
 * it is registered, and follows registrations and removals made through vLLM's dynamic LoRA API. A
 * pod that does not list an adapter answers its requests with 404.
 */
class AdapterListingIT {
  private Stack stack;

  @BeforeEach
  void start() throws Exception {
    stack =
        Stack.start(
            List.of(
                Stack.pod("pod-a", Stack.MODEL, List.of()),
                Stack.pod("pod-b", Stack.MODEL, List.of()),
                Stack.pod("pod-c", Stack.MODEL, List.of(Stack.ADAPTER))),
            """
            grpc: {port: 0, host: 127.0.0.1, drainSeconds: 0}
            admin: {port: 0, host: 127.0.0.1}
            scrape: {intervalMillis: 50, timeoutMillis: 500, modelsIntervalMillis: 100}
            models:
              - {name: llama-8b, pools: [{pool: main}]}
              - {name: sql-lora, baseModel: llama-8b, pools: [{pool: main}]}
            pools:
              - {name: main, endpoints: [{address: "%s"}, {address: "%s"}, {address: "%s"}]}
            """,
            c -> c);
  }

  @AfterEach
  void stop() {
    if (stack != null) {
      stack.close();
    }
  }

  @Test
  void adapterRequestsGoOnlyToPodsThatListItAndFollowItsRollout() throws Exception {
    awaitListings(9); // every pod listed and scraped since
    for (int i = 0; i < 12; i++) {
      assertThat(sendAdapterRequest()).isEqualTo("pod-c");
    }

    // roll the adapter from pod-c to pod-a
    assertThat(
            admin(0, "/v1/load_lora_adapter", "{\"lora_name\":\"sql-lora\",\"lora_path\":\"/a\"}"))
        .isEqualTo(200);
    assertThat(admin(2, "/v1/unload_lora_adapter", "{\"lora_name\":\"sql-lora\"}")).isEqualTo(200);
    awaitListings(listings("ok") + 9);

    for (int i = 0; i < 12; i++) {
      assertThat(sendAdapterRequest()).isEqualTo("pod-a");
    }
    assertThat(listings("ok")).isGreaterThanOrEqualTo(18);
  }

  /** Sends one request for the adapter; returns the pod that answered it (200 required). */
  private String sendAdapterRequest() throws Exception {
    HttpResponse<String> res =
        stack.send(
            stack.http1,
            stack
                .post("/v1/chat/completions", Stack.chat(Stack.ADAPTER, "select 1", false, 2))
                .build());
    assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
    return res.headers().firstValue("x-pointsman-served-by").orElseThrow();
  }

  private int admin(int pod, String path, String json) throws Exception {
    HttpRequest req =
        HttpRequest.newBuilder(URI.create(stack.fleet.urls().get(pod) + path))
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build();
    return HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofString()).statusCode();
  }

  private void awaitListings(double atLeast) {
    Await.until("the picker read " + atLeast + " model listings", () -> listings("ok") >= atLeast);
  }

  /** The picker's count of model-listing reads with {@code result}. */
  private double listings(String result) {
    try {
      double sum = 0;
      for (String line : stack.pickerMetrics().split("\n")) {
        if (line.startsWith("pointsman_models_listings_total")
            && line.contains("result=\"" + result + "\"")) {
          sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        }
      }
      return sum;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
