package dev.pointsman.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.pointsman.testing.Await;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Model-server faults injected through the simulator's admin API, seen through the gateway. */
class FaultsIT {
  private static Stack stack;

  @BeforeAll
  static void start() throws Exception {
    stack =
        Stack.start(
            List.of(
                Stack.pod("dying", "dying-model", List.of()),
                Stack.pod("steady", "steady-model", List.of()),
                Stack.pod("main-a", Stack.MODEL, List.of()),
                Stack.pod("main-b", Stack.MODEL, List.of())),
            Stack.pickerHeader()
                + """
                models:
                  - {name: dying-model, pools: [{pool: dying}]}
                  - {name: steady-model, pools: [{pool: steady}]}
                  - {name: llama-8b, pools: [{pool: main}]}
                pools:
                  - {name: dying, endpoints: [{address: "%s"}]}
                  - {name: steady, endpoints: [{address: "%s"}]}
                  - {name: main, endpoints: [{address: "%s"}, {address: "%s"}]}
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
  void aPodDyingMidStreamEndsOnlyThatStream() throws Exception {
    stack.faults(0, "{\"disconnectAfterTokens\": 5}");
    try {
      // both streams share one HTTP/2 connection to the gateway
      CompletableFuture<List<String>> steady = stream(stack.http2, "steady-model", 40);
      CompletableFuture<List<String>> dying = stream(stack.http2, "dying-model", 40);

      Throwable failure = catchThrowable(() -> dying.get(20, TimeUnit.SECONDS));
      List<String> events = steady.get(20, TimeUnit.SECONDS);

      assertThat(failure).isNotNull();
      assertThat(events).last().isEqualTo("data: [DONE]");
      assertThat(events).hasSizeGreaterThan(40);
    } finally {
      stack.faults(0, "{}");
    }
  }

  @Test
  void aPodDyingMidStreamOverHttp1EndsThatResponseWithAnError() throws Exception {
    stack.faults(0, "{\"disconnectAfterTokens\": 3}");
    try {
      CompletableFuture<List<String>> dying = stream(stack.http1, "dying-model", 40);

      Throwable failure = catchThrowable(() -> dying.get(20, TimeUnit.SECONDS));

      assertThat(failure).hasRootCauseInstanceOf(IOException.class);
    } finally {
      stack.faults(0, "{}");
    }
  }

  @Test
  void aPodWhoseMetricsStopAnsweringGetsNoNewRequests() throws Exception {
    stack.faults(2, "{\"metrics\": \"503\"}");
    try {
      Await.until(
          "the picker marks main-a unavailable",
          () -> stack.picker.datastore().available("main") == 1);

      for (int i = 0; i < 8; i++) {
        HttpResponse<String> res =
            stack.send(
                stack.http1,
                stack
                    .post("/v1/chat/completions", Stack.chat(Stack.MODEL, "hi " + i, false, 1))
                    .build());
        assertThat(res.statusCode()).isEqualTo(200);
        assertThat(res.headers().firstValue("x-pointsman-served-by")).hasValue("main-b");
      }
    } finally {
      stack.faults(2, "{}");
      Await.until("main-a is back", () -> stack.picker.datastore().available("main") == 2);
    }
  }

  /** Streams a completion and collects its SSE lines; fails if the stream breaks. */
  private static CompletableFuture<List<String>> stream(
      HttpClient client, String model, int tokens) {
    return client
        .sendAsync(
            stack.post("/v1/completions", Stack.completion(model, "go", true, tokens)).build(),
            HttpResponse.BodyHandlers.ofInputStream())
        .thenApply(FaultsIT::readEvents);
  }

  private static List<String> readEvents(HttpResponse<InputStream> res) {
    if (res.statusCode() != 200) {
      throw new IllegalStateException("status " + res.statusCode());
    }
    List<String> out = new ArrayList<>();
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(res.body(), StandardCharsets.UTF_8))) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (!line.isEmpty()) {
          out.add(line);
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    if (out.isEmpty() || !out.getLast().equals("data: [DONE]")) {
      throw new IllegalStateException("stream ended without [DONE] after " + out.size());
    }
    return out;
  }
}
