package dev.pointsman.sim.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pointsman.sim.engine.GpuProfiles;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class OpenAiApiTest {
  static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
  static Fleet fleet;
  static Http http;

  @BeforeAll
  static void start() {
    PodConfig pod = PodConfig.of("pod-a", "H100-80").withAdapters(List.of("sql-lora"));
    fleet = Fleet.start(new FleetConfig(List.of(pod), 1L, null), GpuProfiles.builtIn());
    http = new Http(fleet.urls().get(0));
  }

  @AfterAll
  static void stop() {
    fleet.close();
  }

  static String chat(String model, String text, int maxTokens, boolean stream) {
    return """
        {"model": "%s", "messages": [{"role": "user", "content": "%s"}], "max_tokens": %d,
         "stream": %b, "stream_options": {"include_usage": true}}"""
        .formatted(model, text, maxTokens, stream);
  }

  @Test
  void streamingChatFollowsTheOpenAiChunkShape() throws Exception {
    HttpRequest req =
        http.request("/v1/chat/completions")
            .POST(HttpRequest.BodyPublishers.ofString(chat(MODEL, "Hello there", 4, true)))
            .build();

    HttpResponse<java.util.stream.Stream<String>> res =
        http.client.send(req, HttpResponse.BodyHandlers.ofLines());
    List<String> events = res.body().filter(l -> !l.isEmpty()).collect(Collectors.toList());

    assertThat(res.statusCode()).isEqualTo(200);
    assertThat(res.headers().firstValue("content-type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
    assertThat(res.headers().firstValue("x-pointsman-served-by")).hasValue("pod-a");
    assertThat(events).hasSize(7).allMatch(e -> e.startsWith("data: "));
    for (int i = 0; i < 4; i++) {
      JsonNode c = Http.json(events.get(i).substring(6));
      assertThat(c.get("object").asText()).isEqualTo("chat.completion.chunk");
      assertThat(c.get("id").asText()).startsWith("chatcmpl-");
      assertThat(c.get("model").asText()).isEqualTo(MODEL);
      assertThat(c.get("created").isNumber()).isTrue();
      JsonNode choice = c.get("choices").get(0);
      assertThat(choice.get("index").asInt()).isZero();
      assertThat(choice.get("delta").get("content").asText()).isNotEmpty();
      assertThat(choice.get("finish_reason").isNull()).isTrue();
      assertThat(choice.get("delta").has("role")).isEqualTo(i == 0);
    }
    JsonNode last = Http.json(events.get(4).substring(6)).get("choices").get(0);
    assertThat(last.get("finish_reason").asText()).isEqualTo("length");
    JsonNode usage = Http.json(events.get(5).substring(6));
    assertThat(usage.get("choices")).isEmpty();
    assertThat(usage.at("/usage/completion_tokens").asInt()).isEqualTo(4);
    assertThat(usage.at("/usage/prompt_tokens").asInt()).isPositive();
    assertThat(usage.at("/usage/total_tokens").asInt())
        .isEqualTo(usage.at("/usage/prompt_tokens").asInt() + 4);
    assertThat(usage.at("/usage/prompt_tokens_details/cached_tokens").isInt()).isTrue();
    assertThat(events.get(6)).isEqualTo("data: [DONE]");
  }

  @Test
  void nonStreamingCompletionReturnsTextAndUsage() throws Exception {
    HttpResponse<String> res =
        http.post(
            "/v1/completions",
            "{\"model\": \"" + MODEL + "\", \"prompt\": \"Say hi\", \"max_tokens\": 3}");

    JsonNode body = Http.json(res.body());
    assertThat(res.statusCode()).isEqualTo(200);
    assertThat(body.get("object").asText()).isEqualTo("text_completion");
    assertThat(body.at("/choices/0/text").asText()).isNotEmpty();
    assertThat(body.at("/choices/0/finish_reason").asText()).isEqualTo("length");
    assertThat(body.at("/usage/completion_tokens").asInt()).isEqualTo(3);
  }

  @Test
  void repeatedPromptPrefixIsReportedAsCachedTokens() throws Exception {
    String text = "You are a helpful assistant. ".repeat(40);
    http.post("/v1/chat/completions", chat(MODEL, text + "First?", 2, false));

    HttpResponse<String> second =
        http.post("/v1/chat/completions", chat(MODEL, text + "Second?", 2, false));

    JsonNode body = Http.json(second.body());
    assertThat(body.get("object").asText()).isEqualTo("chat.completion");
    assertThat(body.at("/choices/0/message/role").asText()).isEqualTo("assistant");
    assertThat(body.at("/usage/prompt_tokens_details/cached_tokens").asInt())
        .isGreaterThanOrEqualTo(256);
  }

  @Test
  void adaptersAreServedListedLoadedAndUnloaded() throws Exception {
    assertThat(http.post("/v1/chat/completions", chat("sql-lora", "q", 2, false)).statusCode())
        .isEqualTo(200);
    HttpResponse<String> unknown = http.post("/v1/chat/completions", chat("nope", "q", 2, false));
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(Http.json(unknown.body()).at("/error/code").asInt()).isEqualTo(404);

    assertThat(
            http.post(
                    "/v1/load_lora_adapter",
                    "{\"lora_name\": \"new-lora\", \"lora_path\": \"/x/new\"}")
                .statusCode())
        .isEqualTo(200);
    JsonNode models = Http.json(http.get("/v1/models").body());
    assertThat(models.get("object").asText()).isEqualTo("list");
    assertThat(models.findValuesAsText("id")).contains(MODEL, "sql-lora", "new-lora");
    assertThat(models.at("/data/1/parent").asText()).isEqualTo(MODEL);
    assertThat(http.post("/v1/chat/completions", chat("new-lora", "q", 2, false)).statusCode())
        .isEqualTo(200);

    assertThat(http.post("/v1/unload_lora_adapter", "{\"lora_name\": \"new-lora\"}").statusCode())
        .isEqualTo(200);
    assertThat(http.post("/v1/chat/completions", chat("new-lora", "q", 2, false)).statusCode())
        .isEqualTo(404);
  }

  @Test
  void badInputGetsOpenAiErrors() throws Exception {
    HttpResponse<String> res = http.post("/v1/chat/completions", "{not json");

    assertThat(res.statusCode()).isEqualTo(400);
    assertThat(Http.json(res.body()).at("/error/type").asText()).isEqualTo("BadRequestError");
    assertThat(http.post("/v1/chat/completions", "{\"model\": \"" + MODEL + "\"}").statusCode())
        .isEqualTo(400);
    assertThat(http.get("/nowhere").statusCode()).isEqualTo(404);
    assertThat(http.get("/health").statusCode()).isEqualTo(200);
  }
}
