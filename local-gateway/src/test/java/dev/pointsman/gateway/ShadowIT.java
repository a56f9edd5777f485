package dev.pointsman.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pointsman.testing.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Shadow mode end to end: the picker decides every request but names no destination, so the local
 * gateway routes by its own fallback route (round-robin over the pods, the stand-in of an existing
 * balancer); the gateway reports the pod that served, and the picker's {@code /debug/shadow} report
 * and metrics count the decisions, the disagreements and the TTFT prediction error.
 */
class ShadowIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int REQUESTS = 12;

  @Test
  void theBalancerRoutesAndThePickerReportsWhatItWouldHaveDone() throws Exception {
    try (Stack stack =
        Stack.start(
            List.of(
                Stack.pod("main-a", Stack.MODEL, List.of()),
                Stack.pod("main-b", Stack.MODEL, List.of())),
            Stack.pickerHeader()
                + "shadow: {enabled: true, destination: none}\n"
                + """
                models:
                  - {name: llama-8b, pools: [{pool: main}]}
                pools:
                  - {name: main, endpoints: [{address: "%s"}, {address: "%s"}]}
                """,
            (picker, config) ->
                config.withFallback(
                    picker.scrapeTargets().stream().map(t -> t.address()).sorted().toList()))) {
      Set<String> servedBy = new HashSet<>();
      for (int i = 0; i < REQUESTS; i++) {
        HttpResponse<String> res =
            stack.send(
                stack.http1,
                stack
                    .post(
                        "/v1/chat/completions",
                        Stack.chat(Stack.MODEL, "shadowed request " + i, true, 4))
                    .build());
        assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
        res.headers().firstValue("x-pointsman-served-by").ifPresent(servedBy::add);
      }
      // the gateway's round-robin, not the picker, chose: both pods served
      assertThat(servedBy).containsExactlyInAnyOrder("main-a", "main-b");
      Await.until("every request ended", () -> stack.picker.inFlight().liveRequests() == 0);

      JsonNode report = JSON.readTree(get(stack, "/debug/shadow"));
      assertThat(report.path("enabled").asBoolean()).isTrue();
      assertThat(report.path("decisions").asInt()).isEqualTo(REQUESTS);
      assertThat(report.path("served").asInt()).isEqualTo(REQUESTS);
      int differ = report.path("wouldDiffer").asInt();
      assertThat(differ).isBetween(0, REQUESTS);
      assertThat(report.path("agreementRate").asDouble())
          .isEqualTo((REQUESTS - differ) / (double) REQUESTS);
      assertThat(report.path("wouldDifferRate").asDouble()).isEqualTo(differ / (double) REQUESTS);
      // each request's row: the pod that really served (one of the two, both used) and the pick;
      // the disagreements counted are exactly the rows where they differ
      Set<String> pods =
          Set.copyOf(stack.picker.scrapeTargets().stream().map(t -> t.address()).toList());
      int rowsDiffering = 0;
      Set<String> servedRows = new HashSet<>();
      assertThat(report.path("recent")).hasSize(REQUESTS);
      for (JsonNode row : report.path("recent")) {
        assertThat(pods).contains(row.path("served").asText(), row.path("pick").asText());
        servedRows.add(row.path("served").asText());
        if (!row.path("pick").asText().equals(row.path("served").asText())) {
          rowsDiffering++;
        }
      }
      assertThat(servedRows).isEqualTo(pods);
      assertThat(rowsDiffering).isEqualTo(differ);
      JsonNode error = report.path("ttftAbsRelativeError");
      assertThat(error.path("observations").asInt()).isEqualTo(REQUESTS);
      assertThat(error.path("p50").asDouble()).isNotNegative();
      assertThat(error.path("p90").asDouble()).isGreaterThanOrEqualTo(error.path("p50").asDouble());

      String metrics = stack.pickerMetrics();
      String app = "{app=\"pointsman-picker\"} ";
      assertThat(metrics)
          .contains("pointsman_shadow_decisions_total" + app + (double) REQUESTS)
          .contains("pointsman_shadow_would_differ_total" + app + (double) differ)
          .contains("pointsman_shadow_ttft_prediction_error_count" + app + REQUESTS);
    }
  }

  /**
   * {@code destination: balancer}: a balancer in front of the gateway names its pod in a request
   * header; the picker routes there, every request is served by it, and the report compares it with
   * the picks without the proxy having to report anything else.
   */
  @Test
  void theBalancersChoiceInARequestHeaderIsWhereRequestsGo() throws Exception {
    try (Stack stack =
        Stack.start(
            List.of(
                Stack.pod("main-a", Stack.MODEL, List.of()),
                Stack.pod("main-b", Stack.MODEL, List.of())),
            Stack.pickerHeader()
                + "shadow: {enabled: true, destination: balancer, balancerHeader:"
                + " x-balancer-endpoint}\n"
                + """
                models:
                  - {name: llama-8b, pools: [{pool: main}]}
                pools:
                  - {name: main, endpoints: [{address: "%s"}, {address: "%s"}]}
                """,
            (picker, config) -> config)) {
      String chosen =
          stack.picker.scrapeTargets().stream().map(t -> t.address()).sorted().toList().get(1);
      Set<String> servedBy = new HashSet<>();
      for (int i = 0; i < REQUESTS; i++) {
        HttpResponse<String> res =
            stack.send(
                stack.http1,
                stack
                    .post(
                        "/v1/chat/completions",
                        Stack.chat(Stack.MODEL, "balanced request " + i, true, 4))
                    .header("x-balancer-endpoint", chosen)
                    .build());
        assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
        res.headers().firstValue("x-pointsman-served-by").ifPresent(servedBy::add);
      }
      assertThat(servedBy).as("every request went where the balancer said").hasSize(1);
      Await.until("every request ended", () -> stack.picker.inFlight().liveRequests() == 0);

      JsonNode report = JSON.readTree(get(stack, "/debug/shadow"));
      assertThat(report.path("decisions").asInt()).isEqualTo(REQUESTS);
      assertThat(report.path("served").asInt()).isEqualTo(REQUESTS);
      int differ = 0;
      for (JsonNode row : report.path("recent")) {
        assertThat(row.path("served").asText()).isEqualTo(chosen);
        differ += row.path("pick").asText().equals(chosen) ? 0 : 1;
      }
      assertThat(report.path("wouldDiffer").asInt()).isEqualTo(differ);
    }
  }

  private static String get(Stack stack, String path) throws Exception {
    HttpRequest req =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + stack.picker.adminPort() + path))
            .build();
    return HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofString()).body();
  }
}
