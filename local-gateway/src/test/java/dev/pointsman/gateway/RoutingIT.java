package dev.pointsman.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pointsman.testing.Await;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Requests through gateway → picker → simulated pods over real sockets: the pick, streaming, usage,
 * LoRA placement, errors answered by the picker, and header spoofing.
 */
class RoutingIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static Stack stack;

  @BeforeAll
  static void start() throws Exception {
    stack =
        Stack.start(
            List.of(
                Stack.pod("main-a", Stack.MODEL, List.of()),
                Stack.pod("main-b", Stack.MODEL, List.of()),
                Stack.pod("lora-c", Stack.MODEL, List.of(Stack.ADAPTER))),
            Stack.pickerHeader()
                + """
                models:
                  - {name: llama-8b, pools: [{pool: main}]}
                  - {name: sql-lora, baseModel: llama-8b, pools: [{pool: lora}]}
                pools:
                  - {name: main, endpoints: [{address: "%s"}, {address: "%s"}]}
                  - {name: lora, endpoints: [{address: "%s"}]}
                """,
            c -> c);
  }

  @AfterAll
  static void stop() {
    if (stack != null) {
      stack.close();
    }
  }

  @Test
  void chatIsAnsweredByAPodOfThePool() throws Exception {
    HttpResponse<String> res =
        stack.send(stack.http1, stack.post("/v1/chat/completions", chat(false, 4)).build());

    assertThat(res.statusCode()).isEqualTo(200);
    assertThat(res.headers().firstValue("x-pointsman-served-by"))
        .hasValueSatisfying(pod -> assertThat(pod).isIn("main-a", "main-b"));
    JsonNode body = JSON.readTree(res.body());
    assertThat(body.path("choices").get(0).path("message").path("content").asText()).isNotEmpty();
    assertThat(body.path("usage").path("completion_tokens").asInt()).isEqualTo(4);
  }

  @Test
  void completionsAreRoutedToo() throws Exception {
    HttpResponse<String> res =
        stack.send(
            stack.http1,
            stack
                .post("/v1/completions", Stack.completion(Stack.MODEL, "once upon", false, 3))
                .build());

    assertThat(res.statusCode()).isEqualTo(200);
    assertThat(res.headers().firstValue("x-pointsman-served-by")).isPresent();
    assertThat(JSON.readTree(res.body()).path("usage").path("completion_tokens").asInt())
        .isEqualTo(3);
  }

  @Test
  void streamedCompletionArrivesEventByEventWhileTheRequestIsLive() throws Exception {
    HttpRequest req =
        stack
            .post("/v1/completions", Stack.completion(Stack.MODEL, "tell a story", true, 60))
            .build();
    HttpResponse<InputStream> res =
        stack.http1.send(req, HttpResponse.BodyHandlers.ofInputStream());
    assertThat(res.statusCode()).isEqualTo(200);
    assertThat(res.headers().firstValue("content-type").orElse("")).contains("text/event-stream");
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(res.body(), StandardCharsets.UTF_8))) {
      String first = nextEvent(lines);
      // The first event is here while the picker still counts the request as in flight: the
      // gateway forwarded it as it came, it did not wait for the end of the stream.
      boolean liveAtFirstEvent = stack.picker.inFlight().liveRequests() > 0;
      List<String> rest = readAll(lines);

      assertThat(first).startsWith("data: {");
      assertThat(liveAtFirstEvent).isTrue();
      assertThat(rest).last().isEqualTo("data: [DONE]");
      assertThat(rest.get(rest.size() - 2)).contains("\"usage\"");
    }
  }

  @Test
  void streamedChatReportsUsageToThePicker() throws Exception {
    double before = promptTokenCount("main");
    HttpResponse<String> res =
        stack.send(stack.http2, stack.post("/v1/chat/completions", chat(true, 5)).build());

    assertThat(res.statusCode()).isEqualTo(200);
    assertThat(res.version()).isEqualTo(HttpClient.Version.HTTP_2);
    assertThat(res.body()).contains("\"usage\"").endsWith("data: [DONE]\n\n");
    Await.until("the picker read the usage", () -> promptTokenCount("main") > before);
  }

  @Test
  void http2OverTlsServesNonStreamedRequests() throws Exception {
    HttpResponse<String> res =
        stack.send(stack.http2, stack.post("/v1/chat/completions", chat(false, 2)).build());

    assertThat(res.version()).isEqualTo(HttpClient.Version.HTTP_2);
    assertThat(res.statusCode()).isEqualTo(200);
    assertThat(res.headers().firstValue("x-pointsman-served-by")).isPresent();
  }

  @Test
  void loraRequestLandsOnThePodWithTheAdapter() throws Exception {
    for (int i = 0; i < 3; i++) {
      HttpResponse<String> res =
          stack.send(
              stack.http1,
              stack
                  .post("/v1/chat/completions", Stack.chat(Stack.ADAPTER, "select 1", false, 2))
                  .build());

      assertThat(res.statusCode()).isEqualTo(200);
      assertThat(res.headers().firstValue("x-pointsman-served-by")).hasValue("lora-c");
    }
  }

  @Test
  void unknownModelIs404FromThePicker() throws Exception {
    HttpResponse<String> res =
        stack.send(
            stack.http1,
            stack
                .post("/v1/chat/completions", Stack.chat("no-such-model", "hi", false, 2))
                .build());

    assertThat(res.statusCode()).isEqualTo(404);
    assertThat(res.headers().firstValue("x-pointsman-served-by")).isEmpty();
    assertThat(JSON.readTree(res.body()).path("error").path("message").asText()).isNotEmpty();
  }

  @Test
  void malformedBodyIs400() throws Exception {
    HttpResponse<String> res =
        stack.send(stack.http2, stack.post("/v1/chat/completions", "{\"model\": ").build());

    assertThat(res.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(res.body()).path("error").path("type").asText()).isNotEmpty();
  }

  @Test
  void forgedDestinationHeaderIsIgnored() throws Exception {
    HttpResponse<String> res =
        stack.send(
            stack.http1,
            stack
                .post("/v1/chat/completions", chat(false, 2))
                .header("x-gateway-destination-endpoint", "10.255.255.1:9")
                .header("x-gateway-model-name", "forged")
                .build());

    assertThat(res.statusCode()).isEqualTo(200);
    assertThat(res.headers().firstValue("x-pointsman-served-by"))
        .hasValueSatisfying(pod -> assertThat(pod).isIn("main-a", "main-b"));
  }

  @Test
  void modelListIsAnsweredByThePicker() throws Exception {
    HttpResponse<String> res =
        stack.send(stack.http2, HttpRequest.newBuilder(stack.uri("/v1/models")).GET().build());

    assertThat(res.statusCode()).isEqualTo(200);
    assertThat(res.body()).contains(Stack.MODEL);
  }

  @Test
  void clientDisconnectReleasesThePickersAccounting() throws Exception {
    HttpRequest req =
        stack
            .post("/v1/completions", Stack.completion(Stack.MODEL, "a long one", true, 2000))
            .build();
    HttpResponse<InputStream> res =
        stack.http1.send(req, HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream body = res.body()) {
      BufferedReader lines = new BufferedReader(new InputStreamReader(body, UTF8));
      assertThat(nextEvent(lines)).startsWith("data: {");
      assertThat(stack.picker.inFlight().liveRequests()).isPositive();
    } // closing the body before its end closes the connection

    Await.until(
        "the picker released the cancelled request",
        () -> stack.picker.inFlight().liveRequests() == 0);
  }

  private static final java.nio.charset.Charset UTF8 = StandardCharsets.UTF_8;

  private static String chat(boolean stream, int maxTokens) {
    return Stack.chat(Stack.MODEL, "hello through the gateway", stream, maxTokens);
  }

  private static String nextEvent(BufferedReader lines) throws Exception {
    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
      if (!line.isEmpty()) {
        return line;
      }
    }
    throw new AssertionError("stream ended before an event");
  }

  private static List<String> readAll(BufferedReader lines) throws Exception {
    List<String> out = new ArrayList<>();
    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
      if (!line.isEmpty()) {
        out.add(line);
      }
    }
    return out;
  }

  private static double promptTokenCount(String pool) {
    try {
      for (String line : stack.pickerMetrics().split("\n")) {
        if (line.startsWith("pointsman_prompt_tokens_count") && line.contains("pool=\"" + pool)) {
          return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        }
      }
      return 0;
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
