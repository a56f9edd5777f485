package dev.pointsman.sim.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.sim.engine.GpuProfiles;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MetricsAndFaultsTest {
  static final String MODEL = OpenAiApiTest.MODEL;
  Fleet fleet;
  Http vllm;
  Http sglang;

  @BeforeEach
  void start() {
    PodConfig a = PodConfig.of("vllm-pod", "A100-80").withAdapters(List.of("sql-lora"));
    PodConfig b = PodConfig.of("sglang-pod", "H100-80").withEngine("sglang");
    fleet = Fleet.start(new FleetConfig(List.of(a, b), 1L, null), GpuProfiles.builtIn());
    vllm = new Http(fleet.urls().get(0));
    sglang = new Http(fleet.urls().get(1));
  }

  @AfterEach
  void stop() {
    fleet.close();
  }

  @Test
  void vllmMetricsHaveTheExactNamesTypesAndLabels() throws Exception {
    vllm.post("/v1/chat/completions", OpenAiApiTest.chat("sql-lora", "hi", 2, false));

    HttpResponse<String> res = vllm.get("/metrics");
    String text = res.body();

    assertThat(res.headers().firstValue("content-type").orElse("")).startsWith("text/plain");
    String l = "engine=\"0\",model_name=\"" + MODEL + "\"";
    assertThat(text)
        .contains(
            "# TYPE vllm:num_requests_waiting gauge\nvllm:num_requests_waiting{" + l + "} 0.0\n",
            "# TYPE vllm:num_requests_running gauge\nvllm:num_requests_running{" + l + "} 0.0\n",
            "vllm:engine_sleep_state{" + l + ",sleep_state=\"awake\"} 1.0\n",
            "vllm:engine_sleep_state{" + l + ",sleep_state=\"weights_offloaded\"} 0.0\n",
            "# TYPE vllm:kv_cache_usage_perc gauge\nvllm:kv_cache_usage_perc{" + l + "} 0.0\n",
            "# TYPE vllm:cache_config_info gauge\n",
            "block_size=\"16\"",
            ",engine=\"0\",",
            "num_gpu_blocks=\"" + GpuProfiles.builtIn().get("A100-80").kvBlocks() + "\"",
            "# TYPE vllm:lora_requests_info gauge\nvllm:lora_requests_info{"
                + "max_lora=\"4\",running_lora_adapters=\"\",waiting_lora_adapters=\"\"} ",
            "# TYPE vllm:prefix_cache_queries_total counter\nvllm:prefix_cache_queries_total{"
                + l
                + "} ",
            "# TYPE vllm:prefix_cache_queries_created gauge\n",
            "# TYPE vllm:prefix_cache_hits_total counter\nvllm:prefix_cache_hits_total{"
                + l
                + "} 0.0\n",
            "# TYPE vllm:num_preemptions_total counter\nvllm:num_preemptions_total{"
                + l
                + "} 0.0\n",
            "# TYPE vllm:prompt_tokens_total counter\nvllm:prompt_tokens_total{" + l + "} ",
            "# TYPE vllm:generation_tokens_total counter\nvllm:generation_tokens_total{"
                + l
                + "} 2.0\n",
            "# TYPE vllm:time_to_first_token_seconds histogram\n",
            "vllm:time_to_first_token_seconds_bucket{engine=\"0\",le=\"+Inf\",model_name=\""
                + MODEL
                + "\"} 1.0\n",
            "vllm:time_to_first_token_seconds_count{" + l + "} 1.0\n",
            "vllm:time_to_first_token_seconds_sum{" + l + "} ")
        .doesNotContain("cache_config_info{model_name", "lora_requests_info{engine");
    assertThat(text.lines().filter(x -> x.startsWith("# HELP")).count()).isEqualTo(18);
  }

  @Test
  void sglangFlavorUsesSglangNames() throws Exception {
    String text = sglang.get("/metrics").body();

    String l = "engine_type=\"unified\",model_name=\"" + MODEL + "\",pp_rank=\"0\",tp_rank=\"0\"";
    assertThat(text)
        .contains(
            "# TYPE sglang:num_queue_reqs gauge\n",
            "sglang:num_running_reqs{" + l + "} 0.0\n",
            "sglang:token_usage{" + l + "} 0.0\n",
            "sglang:cache_hit_rate{" + l + "} ",
            "sglang:page_size{" + l + "} 1.0\n",
            "sglang:max_total_num_tokens{" + l + "} ",
            "sglang:prompt_tokens_total{model_name=\"" + MODEL + "\"} 0.0\n")
        .doesNotContain("vllm:", "cache_config_info", "priority=");
  }

  @Test
  void aSleepingVllmPodRefusesGenerationWith503UntilWokenAndSaysSoInItsMetrics() throws Exception {
    assertThat(vllm.post("/sleep?level=1", "").statusCode()).isEqualTo(200);

    HttpResponse<String> refused =
        vllm.post("/v1/chat/completions", OpenAiApiTest.chat(MODEL, "hi", 2, false));
    String metrics = vllm.get("/metrics").body();

    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(Http.json(refused.body()).at("/error/code").asInt()).isEqualTo(503);
    assertThat(
            vllm.post("/v1/embeddings", "{\"model\": \"" + MODEL + "\", \"input\": \"x\"}")
                .statusCode())
        .isEqualTo(503);
    assertThat(Http.json(vllm.get("/is_sleeping").body()).path("is_sleeping").asBoolean()).isTrue();
    assertThat(metrics)
        .contains(
            "vllm:engine_sleep_state{engine=\"0\",model_name=\""
                + MODEL
                + "\",sleep_state=\"awake\"} 0.0\n",
            "vllm:engine_sleep_state{engine=\"0\",model_name=\""
                + MODEL
                + "\",sleep_state=\"weights_offloaded\"} 1.0\n");
    assertThat(vllm.get("/v1/models").statusCode()).isEqualTo(200);

    assertThat(vllm.post("/wake_up", "").statusCode()).isEqualTo(200);
    assertThat(
            vllm.post("/v1/chat/completions", OpenAiApiTest.chat(MODEL, "hi", 2, false))
                .statusCode())
        .isEqualTo(200);
    assertThat(Http.json(vllm.get("/is_sleeping").body()).path("is_sleeping").asBoolean())
        .isFalse();
  }

  @Test
  void sleepEndpointsCheckTheLevelTheMethodAndTheEngine() throws Exception {
    assertThat(vllm.post("/sleep?level=3", "").statusCode()).isEqualTo(400);
    assertThat(vllm.get("/sleep").statusCode()).isEqualTo(405);
    assertThat(sglang.post("/sleep", "").statusCode()).isEqualTo(404);
    assertThat(Http.json(vllm.get("/is_sleeping").body()).path("is_sleeping").asBoolean())
        .isFalse();
  }

  @Test
  void onlyTrtllmServesPrometheusMetricsAtItsOwnPath() throws Exception {
    assertThat(vllm.get("/prometheus/metrics").statusCode()).isEqualTo(404);
    assertThat(sglang.get("/prometheus/metrics").statusCode()).isEqualTo(404);
  }

  @Test
  void errorRateOneAnswersEveryCompletionWith500() throws Exception {
    assertThat(vllm.post("/admin/faults", "{\"errorRate\": 1.0}").statusCode()).isEqualTo(200);

    HttpResponse<String> res =
        vllm.post("/v1/chat/completions", OpenAiApiTest.chat(MODEL, "hi", 2, false));

    assertThat(res.statusCode()).isEqualTo(500);
    assertThat(Http.json(res.body()).at("/error/code").asInt()).isEqualTo(500);
    assertThat(vllm.post("/admin/faults", "{\"errorRate\": 2}").statusCode()).isEqualTo(400);
  }

  @Test
  void disconnectMidStreamCutsTheConnectionAndAbortsTheRequest() throws Exception {
    vllm.post("/admin/faults", "{\"disconnectAfterTokens\": 2}");
    HttpRequest req =
        vllm.request("/v1/chat/completions")
            .POST(HttpRequest.BodyPublishers.ofString(OpenAiApiTest.chat(MODEL, "hi", 500, true)))
            .build();

    HttpResponse<InputStream> res =
        vllm.client.send(req, HttpResponse.BodyHandlers.ofInputStream());
    List<String> events = new ArrayList<>();
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(res.body(), StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (!line.isEmpty()) {
          events.add(line);
        }
      }
    } catch (java.io.IOException expected) {
      // the server closed the connection mid-stream
    }

    assertThat(events).hasSize(2).noneMatch(e -> e.contains("[DONE]"));
    Http.await(() -> metric(vllm, "vllm:num_requests_running{").endsWith(" 0.0"));
  }

  @Test
  void metricsFaultsAnswer503OrCloseTheConnection() throws Exception {
    vllm.post("/admin/faults", "{\"metrics\": \"503\"}");
    assertThat(vllm.get("/metrics").statusCode()).isEqualTo(503);

    vllm.post("/admin/faults", "{\"metrics\": \"close\"}");
    assertThatThrownBy(() -> vllm.get("/metrics")).isInstanceOf(java.io.IOException.class);

    vllm.post("/admin/faults", "{\"metrics\": \"up\", \"metricsDelayMs\": 5}");
    assertThat(vllm.get("/metrics").statusCode()).isEqualTo(200);
  }

  @Test
  void hangingPodNeverAnswers() throws Exception {
    vllm.post("/admin/faults", "{\"hang\": true}");
    HttpRequest req =
        vllm.request("/v1/chat/completions")
            .timeout(Duration.ofMillis(300))
            .POST(HttpRequest.BodyPublishers.ofString(OpenAiApiTest.chat(MODEL, "hi", 2, false)))
            .build();

    assertThatThrownBy(() -> vllm.client.send(req, HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(HttpTimeoutException.class);
    assertThat(Http.json(vllm.get("/admin/faults").body()).get("hang").asBoolean()).isTrue();
  }

  private static String metric(Http http, String prefix) {
    try {
      return http.get("/metrics")
          .body()
          .lines()
          .filter(l -> l.startsWith(prefix))
          .findFirst()
          .orElse("");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
