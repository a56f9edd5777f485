package dev.pointsman.picker.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.extproc.testing.Replies;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.picker.testing.PickerAdmin;
import dev.pointsman.picker.testing.PickerChannels;
import dev.pointsman.testing.Await;
import io.grpc.ManagedChannel;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The whole picker over real sockets: a vLLM engine that restarts in place (its counters start
 * again from zero) or wakes from sleep (its KV cache freed) is no longer believed to hold the
 * prompts it was sent, though it never left the pool.
 */
class CacheLossAppTest {
  private static final String PROMPT =
      "a shared system prompt, long enough to fill blocks. ".repeat(60);

  private final MetricsServer a = new MetricsServer();
  private final MetricsServer b = new MetricsServer();
  private PickerApp app;
  private ManagedChannel channel;

  private static String vllm(long queries, boolean sleeping) {
    return "vllm:num_requests_waiting{model_name=\"m\"} 0\n"
        + "vllm:num_requests_running{model_name=\"m\"} 0\n"
        + "vllm:kv_cache_usage_perc{model_name=\"m\"} 0.1\n"
        + "vllm:prefix_cache_queries_total{model_name=\"m\"} "
        + queries
        + "\nvllm:prefix_cache_hits_total{model_name=\"m\"} "
        + queries / 2
        + "\nvllm:engine_sleep_state{model_name=\"m\",sleep_state=\"awake\"} "
        + (sleeping ? 0 : 1)
        + "\nvllm:engine_sleep_state{model_name=\"m\",sleep_state=\"weights_offloaded\"} "
        + (sleeping ? 1 : 0)
        + "\n";
  }

  @BeforeEach
  void setUp() throws Exception {
    a.serving(vllm(10_000, false));
    b.serving(vllm(10_000, false));
    String yaml =
        """
        grpc: {port: 0, host: 127.0.0.1}
        admin: {port: 0, host: 127.0.0.1}
        scrape: {intervalMillis: 20, timeoutMillis: 200}
        pools:
          - name: gpu
            engine: vllm
            models: [m]
            endpoints: [{address: "%s"}, {address: "%s"}]
        """
            .formatted(a.address(), b.address());
    app = new PickerApp(PickerConfig.parse(yaml), null).start();
    channel = PickerChannels.trusting(app);
    Await.until("the picker is ready", app::ready);
  }

  @AfterEach
  void tearDown() throws Exception {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    app.close();
    a.close();
    b.close();
  }

  /** Routes the prompt, answers it, and returns the endpoint it went to. */
  private String route() {
    EnvoyReplay s = EnvoyReplay.open(channel);
    s.requestHeaders("POST", "/v1/chat/completions", false);
    s.requestBody(Replies.chat("m", PROMPT, false), true);
    Map<String, String> set = Replies.setHeaders(s.next().getRequestHeaders().getResponse());
    s.cancel();
    return set.get("x-gateway-destination-endpoint");
  }

  /** The prefix scorer's score of {@code address} in the latest decision. */
  private double prefixScore(String address) throws Exception {
    JsonNode decisions = new ObjectMapper().readTree(admin("/debug/decisions"));
    for (JsonNode c : decisions.get(0).path("candidates")) {
      if (c.path("address").asText().equals(address)) {
        return c.path("scores").path("prefix-cache-scorer").asDouble();
      }
    }
    throw new AssertionError("no candidate " + address + " in " + decisions.get(0));
  }

  private String admin(String path) throws Exception {
    return PickerAdmin.get(app, path);
  }

  @ParameterizedTest
  @ValueSource(strings = {"restart", "wake"})
  void anEngineThatLostItsCacheInPlaceIsNoLongerBelievedToHoldThePrompt(String how)
      throws Exception {
    String first = route();
    route();
    assertThat(prefixScore(first)).as("the prompt is believed cached where it went").isPositive();
    MetricsServer engine = first.equals(a.address()) ? a : b;

    if (how.equals("restart")) {
      engine.serving(vllm(40, false)); // a new process: the counters start again
    } else {
      engine.serving(vllm(10_000, true));
      Await.until("the engine is seen asleep", () -> app.datastore().available("gpu") == 1);
      engine.serving(vllm(10_000, false));
    }
    Await.until(
        "the cache loss is counted",
        () -> {
          try {
            return admin("/metrics")
                .contains(
                    "pointsman_endpoint_cache_resets_total{app=\"pointsman-picker\",reason=\""
                        + how
                        + "\"} 1.0");
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
    Await.until("both endpoints available", () -> app.datastore().available("gpu") == 2);

    route();
    assertThat(prefixScore(first)).as("nothing is believed cached there now").isZero();
  }
}
