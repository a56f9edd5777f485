package dev.pointsman.sim.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pointsman.sim.engine.GpuProfiles;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every API the gateway routes to a pod, through the pod's HTTP API, in OpenAI's shapes: the
 * Responses API (whole and streamed), embeddings, and {@code n} choices.
 */
class EveryRoutedApiTest {
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

  // ---- chat/completions and completions: n

  @Test
  void chatWithNReturnsNChoicesAndCountsEveryChoicesTokens() throws Exception {
    HttpResponse<String> r =
        http.post(
            "/v1/chat/completions",
            """
            {"model": "%s", "n": 3, "max_tokens": 4,
             "messages": [{"role": "user", "content": "Hi"}]}"""
                .formatted(MODEL));

    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode body = Http.json(r.body());
    JsonNode choices = body.get("choices");
    assertThat(choices).hasSize(3);
    Set<String> texts = new HashSet<>();
    for (int i = 0; i < 3; i++) {
      assertThat(choices.get(i).get("index").asInt()).isEqualTo(i);
      assertThat(choices.get(i).at("/message/role").asText()).isEqualTo("assistant");
      assertThat(choices.get(i).get("finish_reason").asText()).isEqualTo("length");
      texts.add(choices.get(i).at("/message/content").asText());
    }
    assertThat(texts).as("the choices differ").hasSize(3);
    assertThat(body.at("/usage/completion_tokens").asInt()).isEqualTo(12);
  }

  @Test
  void streamedChatWithNStreamsEveryChoiceWithItsIndex() throws Exception {
    List<JsonNode> chunks =
        dataEvents(
            http.post(
                "/v1/chat/completions",
                """
                {"model": "%s", "n": 2, "max_tokens": 3, "stream": true,
                 "stream_options": {"include_usage": true},
                 "messages": [{"role": "user", "content": "Hi"}]}"""
                    .formatted(MODEL)));

    for (int index = 0; index < 2; index++) {
      int i = index;
      List<JsonNode> mine =
          chunks.stream()
              .filter(c -> !c.get("choices").isEmpty())
              .filter(c -> c.at("/choices/0/index").asInt() == i)
              .toList();
      assertThat(mine).as("choice %d", i).hasSize(4); // 3 tokens, then the finish chunk
      assertThat(mine.getFirst().at("/choices/0/delta/role").asText()).isEqualTo("assistant");
      assertThat(mine.getLast().at("/choices/0/finish_reason").asText()).isEqualTo("length");
    }
    assertThat(chunks.getLast().at("/usage/completion_tokens").asInt()).isEqualTo(6);
  }

  @Test
  void completionsWithNReturnNTextChoices() throws Exception {
    HttpResponse<String> r =
        http.post(
            "/v1/completions",
            """
            {"model": "%s", "n": 2, "max_tokens": 2, "prompt": "Once"}"""
                .formatted(MODEL));

    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode choices = Http.json(r.body()).get("choices");
    assertThat(choices).hasSize(2);
    assertThat(choices.get(1).get("index").asInt()).isEqualTo(1);
    assertThat(choices.get(1).get("text").asText()).isNotEmpty();
  }

  @Test
  void anOutOfRangeNIsA400InOpenAiFormat() throws Exception {
    HttpResponse<String> r =
        http.post(
            "/v1/chat/completions",
            """
            {"model": "%s", "n": 0, "messages": [{"role": "user", "content": "Hi"}]}"""
                .formatted(MODEL));

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(Http.json(r.body()).at("/error/message").asText()).contains("n: 0");
  }

  // ---- responses

  @Test
  void responsesAnswersAResponseObjectWithOneMessage() throws Exception {
    HttpResponse<String> r =
        http.post(
            "/v1/responses",
            """
            {"model": "%s", "instructions": "Be brief.", "input": "Hello", "max_output_tokens": 3}"""
                .formatted(MODEL));

    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode body = Http.json(r.body());
    assertThat(body.get("object").asText()).isEqualTo("response");
    assertThat(body.get("id").asText()).startsWith("resp_");
    assertThat(body.get("model").asText()).isEqualTo(MODEL);
    assertThat(body.get("status").asText()).isEqualTo("incomplete");
    assertThat(body.at("/incomplete_details/reason").asText()).isEqualTo("max_output_tokens");
    JsonNode message = body.get("output").get(0);
    assertThat(message.get("type").asText()).isEqualTo("message");
    assertThat(message.get("id").asText()).startsWith("msg_");
    assertThat(message.get("role").asText()).isEqualTo("assistant");
    assertThat(message.at("/content/0/type").asText()).isEqualTo("output_text");
    assertThat(message.at("/content/0/text").asText()).isNotBlank();
    assertThat(body.at("/usage/output_tokens").asInt()).isEqualTo(3);
    assertThat(body.at("/usage/input_tokens").asInt()).isPositive();
    assertThat(body.at("/usage/total_tokens").asInt())
        .isEqualTo(body.at("/usage/input_tokens").asInt() + 3);
  }

  @Test
  void responsesAcceptsAListOfMessageItems() throws Exception {
    HttpResponse<String> r =
        http.post(
            "/v1/responses",
            """
            {"model": "sql-lora", "max_output_tokens": 2, "input": [
              {"role": "user", "content": [{"type": "input_text", "text": "Count users"}]},
              {"type": "message", "role": "assistant", "content": "SELECT"}]}""");

    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(Http.json(r.body()).get("model").asText()).isEqualTo("sql-lora");
  }

  @Test
  void streamedResponsesSendTheNumberedEventsInOrder() throws Exception {
    HttpResponse<String> r =
        http.post(
            "/v1/responses",
            """
            {"model": "%s", "input": "Hello", "max_output_tokens": 3, "stream": true}"""
                .formatted(MODEL));

    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    List<String> types = new ArrayList<>();
    List<JsonNode> events = new ArrayList<>();
    for (String block : r.body().split("\n\n")) {
      String[] lines = block.split("\n");
      assertThat(lines[0]).startsWith("event: ");
      assertThat(lines[1]).startsWith("data: ");
      JsonNode e = Http.json(lines[1].substring(6));
      assertThat(e.get("type").asText()).isEqualTo(lines[0].substring(7));
      types.add(e.get("type").asText());
      events.add(e);
    }
    assertThat(types)
        .containsExactly(
            "response.created",
            "response.in_progress",
            "response.output_item.added",
            "response.content_part.added",
            "response.output_text.delta",
            "response.output_text.delta",
            "response.output_text.delta",
            "response.output_text.done",
            "response.content_part.done",
            "response.output_item.done",
            "response.incomplete");
    for (int i = 0; i < events.size(); i++) {
      assertThat(events.get(i).get("sequence_number").asInt()).isEqualTo(i);
    }
    StringBuilder deltas = new StringBuilder();
    events.stream()
        .filter(e -> e.get("type").asText().equals("response.output_text.delta"))
        .forEach(e -> deltas.append(e.get("delta").asText()));
    assertThat(events.get(7).get("text").asText()).isEqualTo(deltas.toString());
    assertThat(events.get(0).at("/response/status").asText()).isEqualTo("in_progress");
    JsonNode done = events.getLast().get("response");
    assertThat(done.at("/output/0/content/0/text").asText()).isEqualTo(deltas.toString());
    assertThat(done.at("/usage/output_tokens").asInt()).isEqualTo(3);
    assertThat(r.body()).doesNotContain("[DONE]");
  }

  @Test
  void responsesWithoutInputIsA400() throws Exception {
    HttpResponse<String> r = http.post("/v1/responses", "{\"model\": \"%s\"}".formatted(MODEL));

    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(Http.json(r.body()).at("/error/message").asText()).startsWith("input: missing");
  }

  // ---- embeddings

  @Test
  void embeddingsGiveOneDeterministicUnitVectorPerInput() throws Exception {
    String body =
        """
        {"model": "%s", "input": ["the cat", "a dog", "the cat"]}"""
            .formatted(MODEL);

    JsonNode first = Http.json(http.post("/v1/embeddings", body).body());
    JsonNode again = Http.json(http.post("/v1/embeddings", body).body());

    assertThat(first.get("object").asText()).isEqualTo("list");
    assertThat(first.get("model").asText()).isEqualTo(MODEL);
    JsonNode data = first.get("data");
    assertThat(data).hasSize(3);
    for (int i = 0; i < 3; i++) {
      assertThat(data.get(i).get("object").asText()).isEqualTo("embedding");
      assertThat(data.get(i).get("index").asInt()).isEqualTo(i);
      float[] v = floats(data.get(i).get("embedding"));
      assertThat(v).hasSize(EmbeddingCall.DEFAULT_DIMENSIONS);
      assertThat(norm(v)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-4));
    }
    assertThat(data.get(2).get("embedding")).isEqualTo(data.get(0).get("embedding"));
    assertThat(data.get(1).get("embedding")).isNotEqualTo(data.get(0).get("embedding"));
    assertThat(again.get("data")).isEqualTo(data);
    assertThat(first.at("/usage/prompt_tokens").asInt()).isPositive();
    assertThat(first.at("/usage/total_tokens").asInt())
        .isEqualTo(first.at("/usage/prompt_tokens").asInt());
  }

  @Test
  void embeddingsHonourDimensionsAndBase64() throws Exception {
    JsonNode floats =
        Http.json(
            http.post(
                    "/v1/embeddings",
                    """
                    {"model": "%s", "input": "hello", "dimensions": 8}"""
                        .formatted(MODEL))
                .body());
    JsonNode base64 =
        Http.json(
            http.post(
                    "/v1/embeddings",
                    """
                    {"model": "%s", "input": "hello", "dimensions": 8,
                     "encoding_format": "base64"}"""
                        .formatted(MODEL))
                .body());

    float[] expected = floats(floats.at("/data/0/embedding"));
    assertThat(expected).hasSize(8);
    ByteBuffer b =
        ByteBuffer.wrap(Base64.getDecoder().decode(base64.at("/data/0/embedding").asText()))
            .order(ByteOrder.LITTLE_ENDIAN);
    float[] decoded = new float[b.remaining() / 4];
    for (int i = 0; i < decoded.length; i++) {
      decoded[i] = b.getFloat();
    }
    assertThat(decoded).containsExactly(expected);
  }

  @Test
  void embeddingsAcceptTokenIds() throws Exception {
    HttpResponse<String> r =
        http.post(
            "/v1/embeddings",
            """
            {"model": "%s", "input": [[1, 2, 3], [4, 5]], "dimensions": 4}"""
                .formatted(MODEL));

    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    JsonNode body = Http.json(r.body());
    assertThat(body.get("data")).hasSize(2);
    assertThat(body.at("/usage/prompt_tokens").asInt()).isEqualTo(5);
  }

  @Test
  void embeddingsRefuseBadInputAndUnknownModels() throws Exception {
    HttpResponse<String> empty =
        http.post("/v1/embeddings", "{\"model\": \"%s\", \"input\": []}".formatted(MODEL));
    HttpResponse<String> unknown =
        http.post("/v1/embeddings", "{\"model\": \"nope\", \"input\": \"x\"}");

    assertThat(empty.statusCode()).isEqualTo(400);
    assertThat(Http.json(empty.body()).at("/error/message").asText()).startsWith("input:");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(Http.json(unknown.body()).at("/error/type").asText()).isEqualTo("NotFoundError");
  }

  private static List<JsonNode> dataEvents(HttpResponse<String> r) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    List<JsonNode> out = new ArrayList<>();
    for (String line : r.body().split("\n")) {
      if (line.startsWith("data: ") && !line.equals("data: [DONE]")) {
        out.add(Http.json(line.substring(6)));
      }
    }
    assertThat(r.body().strip()).endsWith("data: [DONE]");
    return out;
  }

  private static float[] floats(JsonNode array) {
    float[] v = new float[array.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) array.get(i).asDouble();
    }
    return v;
  }

  private static double norm(float[] v) {
    double s = 0;
    for (float f : v) {
      s += f * (double) f;
    }
    return Math.sqrt(s);
  }
}
