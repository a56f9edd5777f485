package dev.pointsman.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.testing.Await;
import dev.pointsman.testing.LiveObjects;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A request that has ended leaves nothing of itself behind, in the gateway or in the picker: over
 * real sockets, after streamed and whole answers, clients that hang up mid-stream and requests
 * refused, no per-request object of either is still reachable. Counted with the JVM's class
 * histogram (the {@code GC.class_histogram} diagnostic command, which collects first), so an object
 * kept alive by anything, a timer included, counts; the soak run found finished exchanges held for
 * the whole stream idle timeout by their idle check (docs/benchmarks.md, "Soak").
 */
class FinishedRequestsFreedIT {
  /** Objects made for one request, by the gateway (first three) and the picker's ext_proc side. */
  private static final List<String> PER_REQUEST =
      List.of(
          "dev.pointsman.gateway.proxy.Exchange",
          "dev.pointsman.gateway.proxy.UpstreamLeg",
          "dev.pointsman.gateway.proxy.Downstream",
          "dev.pointsman.extproc.ExtProcStream",
          "dev.pointsman.extproc.RequestPhase");

  private static Stack stack;

  @BeforeAll
  static void start() throws Exception {
    String yaml =
        Stack.pickerHeader()
            + """
            models:
              - {name: llama-8b, pools: [{pool: main}]}
            pools:
              - {name: main, endpoints: [{address: "%s"}, {address: "%s"}]}
            """;
    stack =
        Stack.start(
            List.of(
                Stack.pod("pod-a", Stack.MODEL, List.of()),
                Stack.pod("pod-b", Stack.MODEL, List.of())),
            yaml,
            UnaryOperator.identity());
  }

  @AfterAll
  static void stop() {
    stack.close();
  }

  @Test
  void nothingOfAnEndedRequestStaysReachable() throws Exception {
    Map<String, Long> before = live(); // other test classes' leftovers in this JVM, if any
    List<CompletableFuture<Integer>> answers = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      answers.add(status(stack.http2, Stack.chat(Stack.MODEL, "streamed " + i, true, 8)));
      answers.add(status(stack.http1, Stack.chat(Stack.MODEL, "whole " + i, false, 8)));
    }
    for (int i = 0; i < 4; i++) {
      answers.add(status(stack.http1, "{\"model\": \"llama-8b\", \"messages\": ["));
      answers.add(status(stack.http2, Stack.chat("no-such-model", "refused " + i, true, 8)));
    }
    List<Integer> statuses = new ArrayList<>();
    for (CompletableFuture<Integer> a : answers) {
      statuses.add(a.get());
    }
    for (int i = 0; i < 4; i++) {
      hangUpAfterFirstBytes(stack.http2, i);
    }
    assertThat(statuses).filteredOn(s -> s == 200).hasSize(16);
    assertThat(statuses).filteredOn(s -> s >= 400).hasSize(8);

    Await.until(
        "no object of an ended request is reachable",
        Duration.ofSeconds(30),
        () -> live().entrySet().stream().allMatch(e -> e.getValue() <= before.get(e.getKey())),
        () -> live() + " against " + before + " before the requests");
  }

  private static CompletableFuture<Integer> status(HttpClient client, String json) {
    return client
        .sendAsync(
            stack.post("/v1/chat/completions", json).build(), HttpResponse.BodyHandlers.ofString())
        .thenApply(HttpResponse::statusCode);
  }

  /** A streamed answer whose client reads its first bytes, then closes the stream. */
  private static void hangUpAfterFirstBytes(HttpClient client, int i) throws Exception {
    HttpResponse<InputStream> r =
        client.send(
            stack
                .post("/v1/chat/completions", Stack.chat(Stack.MODEL, "gone " + i, true, 64))
                .build(),
            HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream in = r.body()) {
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(in.read(new byte[16])).isPositive();
    }
  }

  private static Map<String, Long> live() {
    return LiveObjects.count(PER_REQUEST);
  }
}
