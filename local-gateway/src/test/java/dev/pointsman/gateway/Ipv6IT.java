package dev.pointsman.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.gateway.config.ListenSection;
import dev.pointsman.gateway.config.PickerSection;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The gateway on IPv6: {@code listen.host: "[::]"} accepts IPv4 and IPv6 clients on one socket, and
 * a picker reached at an IPv6 literal ({@code [::1]:port}) routes as over IPv4 (real sockets).
 */
class Ipv6IT {
  private static Stack stack;

  @BeforeAll
  static void start() throws Exception {
    stack =
        Stack.start(
            List.of(Stack.pod("main-a", Stack.MODEL, List.of())),
            Stack.pickerHeader()
                    .replace("host: 127.0.0.1, drainSeconds", "host: \"::1\", drainSeconds")
                + """
                models: [{name: llama-8b, pools: [{pool: main}]}]
                pools: [{name: main, endpoints: [{address: "%s"}]}]
                """,
            (picker, c) ->
                c.withListen(new ListenSection("[::]", 0, null, null, null, List.of("::1")))
                    .withPicker(
                        new PickerSection(
                            "[::1]:" + picker.grpcPort(),
                            "tls",
                            null,
                            picker.certificatePem().orElseThrow(),
                            "localhost")));
  }

  @AfterAll
  static void stop() {
    if (stack != null) {
      stack.close();
    }
  }

  @Test
  void oneListenerServesIpv4AndIpv6Clients() throws Exception {
    for (String host : List.of("127.0.0.1", "[::1]")) {
      HttpRequest request =
          HttpRequest.newBuilder(
                  URI.create("https://" + host + ":" + stack.gateway.port() + "/v1/completions"))
              .timeout(Duration.ofSeconds(20))
              .header("content-type", "application/json")
              .POST(
                  HttpRequest.BodyPublishers.ofString(
                      Stack.completion(Stack.MODEL, "hi", false, 2)))
              .build();
      for (var client : List.of(stack.http1, stack.http2)) {
        HttpResponse<String> res = stack.send(client, request);
        assertThat(res.statusCode()).as("%s %s", host, client.version()).isEqualTo(200);
        assertThat(res.body()).contains("\"usage\"");
      }
    }
  }
}
