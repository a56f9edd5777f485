package dev.pointsman.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.gateway.app.LocalGateway;
import dev.pointsman.gateway.config.GatewayConfig;
import dev.pointsman.gateway.config.ListenSection;
import dev.pointsman.gateway.config.PickerSection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A pool whose InferencePool says {@code appProtocol: kubernetes.io/h2c}: the picker adds {@code
 * x-pointsman-app-protocol: kubernetes.io/h2c}, and the gateway reaches the picked pod over HTTP/2
 * cleartext with prior knowledge, as Envoy's {@code picked-h2c} route does. The pod is an
 * HTTP/2-only server (real sockets), so an HTTP/1.1 request could not be answered by it.
 */
class H2cUpstreamIT {
  private final H2cPod pod = new H2cPod();
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable c : open.reversed()) {
      c.close();
    }
    pod.close();
  }

  private LocalGateway gateway(String... pickerHeaders) throws Exception {
    FakePicker picker = new FakePicker(FakePicker.routingTo(pod.address(), pickerHeaders));
    open.add(picker);
    LocalGateway gw =
        LocalGateway.start(
            GatewayConfig.of(
                new ListenSection("127.0.0.1", 0, "plaintext", null, null, null),
                PickerSection.plaintext(picker.address())));
    open.add(gw);
    return gw;
  }

  private static CompletableFuture<HttpResponse<String>> post(LocalGateway gw, String forged) {
    HttpRequest.Builder req =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gw.port() + "/v1/completions"))
            .timeout(Duration.ofSeconds(20))
            .header("content-type", "application/json")
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    Stack.completion(Stack.MODEL, "hello h2c", true, 2)));
    if (forged != null) {
      req.header("x-pointsman-app-protocol", forged);
    }
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .build()
        .sendAsync(req.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void anH2cPoolIsSpokenToInHttp2WithPriorKnowledgeOnOneConnection() throws Exception {
    LocalGateway gw = gateway("x-pointsman-app-protocol", "kubernetes.io/h2c");

    List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      all.add(post(gw, null));
    }
    for (var f : all) {
      HttpResponse<String> res = f.get(20, TimeUnit.SECONDS);
      assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
      assertThat(res.headers().firstValue("x-pointsman-served-by")).hasValue("h2c");
      assertThat(res.headers().map().keySet()).noneMatch(h -> h.startsWith("x-http2-"));
      assertThat(res.body()).contains(" over").contains(" h2c").contains("data: [DONE]");
    }
    assertThat(pod.requests).hasSize(6);
    assertThat(pod.bodies).allSatisfy(b -> assertThat(b).contains("hello h2c"));
    // the picker's word to the data plane is not forwarded, the destination is (as in Envoy)
    assertThat(pod.requests)
        .allSatisfy(
            h -> {
              assertThat(h.contains("x-pointsman-app-protocol")).isFalse();
              assertThat(h.get("x-gateway-destination-endpoint")).isEqualTo(pod.address());
            });
    // streams on one event loop share a connection (the gateway has one loop per core)
    assertThat(pod.connections.get()).isBetween(1, Runtime.getRuntime().availableProcessors() * 2);
  }

  @Test
  void withoutTheHeaderThePodIsSpokenToInHttp1AndAClientCannotChooseH2c() throws Exception {
    LocalGateway gw = gateway();

    HttpResponse<String> res = post(gw, "kubernetes.io/h2c").get(20, TimeUnit.SECONDS);

    // the HTTP/2-only pod cannot answer HTTP/1.1: the forged header was stripped
    assertThat(res.statusCode()).isGreaterThanOrEqualTo(500);
    assertThat(pod.requests).isEmpty();
  }
}
