package dev.pointsman.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.testing.Await;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Responses a model server gives before or instead of taking the whole request: the client gets
 * them at once, and the side stream and the model-server connection are cleaned up.
 */
class UpstreamTrustIT {
  private static final Pattern IN_FLIGHT =
      Pattern.compile("pointsman_pool_inflight_requests\\{[^}]*name=\"main\"[^}]*} (\\S+)");
  private static Stack stack;

  @BeforeAll
  static void start() throws Exception {
    stack =
        Stack.start(
            List.of(Stack.pod("main-a", Stack.MODEL, List.of())),
            Stack.pickerHeader()
                + """
                models:
                  - {name: llama-8b, pools: [{pool: main}]}
                pools:
                  - {name: main, endpoints: [{address: "%s"}]}
                """,
            c -> c);
  }

  @AfterAll
  static void stop() {
    if (stack != null) {
      stack.close();
    }
  }

  @ParameterizedTest(name = "HTTP/{0}")
  @ValueSource(ints = {1, 2})
  void aBodyOverThePodsLimitGetsThePods413AndEverythingIsReleased(int version) throws Exception {
    // under the picker's 16 MiB body limit, over the simulated pod's 8 MiB
    String big = Stack.chat(Stack.MODEL, "a".repeat(9 << 20), false, 4);
    HttpClient client = version == 1 ? stack.http1 : stack.http2;

    HttpResponse<String> res =
        stack.send(
            client,
            stack.post("/v1/chat/completions", big).timeout(Duration.ofSeconds(60)).build());

    assertThat(res.statusCode()).isEqualTo(413);
    Await.until("the picker released the request", () -> inFlight() == 0);
    HttpResponse<String> next =
        stack.send(
            client,
            stack.post("/v1/chat/completions", Stack.chat(Stack.MODEL, "hi", false, 2)).build());
    assertThat(next.statusCode()).isEqualTo(200);
  }

  private static double inFlight() {
    try {
      Matcher m = IN_FLIGHT.matcher(stack.pickerMetrics());
      return m.find() ? Double.parseDouble(m.group(1)) : -1;
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
