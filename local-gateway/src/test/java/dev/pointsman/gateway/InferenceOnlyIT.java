package dev.pointsman.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pointsman.gateway.app.LocalGateway;
import dev.pointsman.gateway.config.GatewayConfig;
import dev.pointsman.gateway.config.ListenSection;
import dev.pointsman.gateway.config.PickerSection;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.server.Fleet;
import dev.pointsman.sim.server.FleetConfig;
import dev.pointsman.testing.Await;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The gateway is not a door to the model servers' admin API. Over real sockets, through the local
 * gateway (failing open onto a fallback endpoint, the most permissive setting) in front of
 * simulated pods: every request off the inference API, however its path is dressed up, gets the
 * gateway's own 404 (or 400 where Envoy refuses the path) and never reaches a pod. Each pod sits
 * behind a recording front that sees every request the pod gets; the pods' adapters and faults are
 * checked too. The picker has a default model, so a body without one would be routable.
 */
class InferenceOnlyIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static Fleet fleet;
  private static List<RecordingFront> fronts;
  private static PickerApp picker;
  private static LocalGateway gateway;
  private static SSLContext tls;

  @BeforeAll
  static void start() throws Exception {
    fleet =
        Fleet.start(
            new FleetConfig(
                List.of(
                    Stack.pod("pod-a", Stack.MODEL, List.of()),
                    Stack.pod("pod-b", Stack.MODEL, List.of())),
                1L,
                null),
            GpuProfiles.builtIn());
    fronts =
        List.of(new RecordingFront(fleet.urls().get(0)), new RecordingFront(fleet.urls().get(1)));
    String yaml =
        Stack.pickerHeader()
            + """
            models:
              - {name: llama-8b, pools: [{pool: main}]}
            defaultModel: llama-8b
            pools:
              - {name: main, endpoints: [{address: "%s"}, {address: "%s"}]}
            """
                .formatted(fronts.get(0).address(), fronts.get(1).address());
    picker = new PickerApp(PickerConfig.parse(yaml), null).start();
    Await.until("the picker has scraped every pod", picker::ready);
    gateway =
        LocalGateway.start(
            GatewayConfig.of(
                    new ListenSection("127.0.0.1", 0, null, null, null, null),
                    PickerSection.trusting(
                        "localhost:" + picker.grpcPort(), picker.certificatePem().orElseThrow()))
                .withFailureModeAllow(true)
                .withFallback(List.of(fronts.get(0).address())));
    tls = Stack.trusting(gateway.certificatePem().orElseThrow());
  }

  @AfterAll
  static void stop() {
    if (gateway != null) {
      gateway.close();
    }
    if (picker != null) {
      picker.close();
    }
    if (fronts != null) {
      fronts.forEach(RecordingFront::close);
    }
    if (fleet != null) {
      fleet.close();
    }
  }

  /** A body that names the model, as a pre-fix gateway would have routed it. */
  private static final String ADAPTER =
      "{\"model\":\"llama-8b\",\"lora_name\":\"evil\",\"lora_path\":\"/tmp/evil\"}";

  private static final String FAULTS = "{\"model\":\"llama-8b\",\"errorRate\":1.0}";

  static Stream<Arguments> bypasses() {
    return Stream.of(
        Arguments.of("POST", "/v1/load_lora_adapter", ADAPTER, 404),
        Arguments.of("POST", "/v1/unload_lora_adapter", ADAPTER, 404),
        Arguments.of("POST", "/v1/../admin/faults", FAULTS, 404),
        Arguments.of("POST", "/admin/faults", FAULTS, 404),
        Arguments.of("POST", "/metrics", ADAPTER, 404),
        Arguments.of("GET", "/metrics", "", 404),
        Arguments.of("POST", "//v1/load_lora_adapter", ADAPTER, 404),
        Arguments.of("POST", "/v1/%2e%2e/admin/faults", FAULTS, 404),
        Arguments.of("POST", "/v1/chat/completions/../../metrics", ADAPTER, 404),
        Arguments.of("POST", "/v1/chat/completions/../../v1/load_lora_adapter", ADAPTER, 404),
        Arguments.of("POST", "/v1/chat/completions/../../admin/faults", FAULTS, 404),
        Arguments.of("POST", "/v1\\load_lora_adapter", ADAPTER, 404),
        Arguments.of("POST", "/v1\\..\\admin\\faults", FAULTS, 404),
        Arguments.of("POST", "/v1/chat/completions\\..\\..\\admin\\faults", FAULTS, 404),
        Arguments.of("POST", "\\v1\\load_lora_adapter", ADAPTER, 404),
        Arguments.of("POST", "/v1/chat%2Fcompletions", ADAPTER, 400),
        Arguments.of("POST", "/v1/completions/..%2f..%2fadmin/faults", FAULTS, 400),
        Arguments.of("POST", "/v1/completions/..%5C..%5Cadmin/faults", FAULTS, 400),
        Arguments.of("POST", "/v1/%6Coad_lora_adapter", ADAPTER, 404),
        Arguments.of("GET", "/v1/chat/completions", "", 404),
        Arguments.of("POST", "/v1/models", ADAPTER, 404));
  }

  @ParameterizedTest(name = "{0} {1} → {3}")
  @MethodSource("bypasses")
  void aRequestOffTheInferenceApiNeverReachesAPod(
      String method, String path, String body, int status) throws Exception {
    List<String> before = seenBesidesScrapes();

    Raw res = raw(method, path, body);

    assertThat(res.status()).as(res.body()).isEqualTo(status);
    JsonNode error = JSON.readTree(res.body()).path("error");
    assertThat(error.path("code").asText())
        .isEqualTo(status == 404 ? "unknown_path" : "invalid_path");
    assertThat(error.path("type").asText())
        .isEqualTo(status == 404 ? "not_found_error" : "invalid_request_error");
    assertThat(seenBesidesScrapes()).as("what the pods received").isEqualTo(before);
    for (String pod : fleet.urls()) {
      assertThat(get(pod + "/v1/models")).doesNotContain("evil");
      assertThat(JSON.readTree(get(pod + "/admin/faults")).path("errorRate").asDouble()).isZero();
    }
  }

  @Test
  void theInferenceApiStillReachesAPodAndTheListingIsAnsweredByThePicker() throws Exception {
    List<String> before = seenBesidesScrapes();

    Raw chat =
        raw(
            "POST",
            "/v1/chat/completions",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":2}");
    Raw dotted =
        raw(
            "POST",
            "/v1/./chat//completions",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":2}");
    Raw list = raw("GET", "/v1/models", "");
    Raw model = raw("GET", "/v1/models/llama-8b", "");
    Raw head = raw("HEAD", "/v1/models", "");

    assertThat(chat.status()).as(chat.body()).isEqualTo(200);
    assertThat(dotted.status()).as("normalised as Envoy does, then routed").isEqualTo(200);
    assertThat(JSON.readTree(list.body()).path("data").findValuesAsText("id")).contains("llama-8b");
    assertThat(JSON.readTree(model.body()).path("id").asText()).isEqualTo("llama-8b");
    assertThat(head.status()).isEqualTo(200);
    assertThat(head.body()).isEmpty();
    List<String> after = seenBesidesScrapes();
    assertThat(after.subList(before.size(), after.size()))
        .containsExactly("POST /v1/chat/completions", "POST /v1/chat/completions");
  }

  private static List<String> seenBesidesScrapes() {
    return fronts.stream().flatMap(f -> f.seenBesidesScrapes().stream()).toList();
  }

  private static String get(String url) throws Exception {
    return HttpClient.newHttpClient()
        .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
        .body();
  }

  record Raw(int status, String body) {}

  /** One HTTP/1.1 request with the path exactly as written (no client-side normalisation). */
  private static Raw raw(String method, String path, String body) throws IOException {
    try (SSLSocket s =
        (SSLSocket) tls.getSocketFactory().createSocket("127.0.0.1", gateway.port())) {
      s.setSoTimeout(20_000);
      byte[] content = body.getBytes(StandardCharsets.UTF_8);
      String head =
          method
              + " "
              + path
              + " HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\n"
              + (content.length > 0 || method.equals("POST")
                  ? "content-length: " + content.length + "\r\n"
                  : "")
              + "connection: close\r\n\r\n";
      OutputStream out = s.getOutputStream();
      out.write(head.getBytes(StandardCharsets.ISO_8859_1));
      out.write(content);
      out.flush();
      return parse(s.getInputStream(), method.equals("HEAD"));
    }
  }

  private static Raw parse(InputStream in, boolean head) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    in.transferTo(all);
    String text = all.toString(StandardCharsets.ISO_8859_1);
    int end = text.indexOf("\r\n\r\n");
    String headers = text.substring(0, end);
    int status = Integer.parseInt(headers.substring(9, 12));
    String rest = text.substring(end + 4);
    if (head) {
      return new Raw(status, rest);
    }
    if (headers.toLowerCase().contains("transfer-encoding: chunked")) {
      StringBuilder body = new StringBuilder();
      int at = 0;
      while (true) {
        int eol = rest.indexOf("\r\n", at);
        int size = Integer.parseInt(rest.substring(at, eol).trim(), 16);
        if (size == 0) {
          break;
        }
        body.append(rest, eol + 2, eol + 2 + size);
        at = eol + 2 + size + 2;
      }
      rest = body.toString();
    }
    return new Raw(
        status, new String(rest.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8));
  }
}
