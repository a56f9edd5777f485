package dev.pointsman.gateway;

import dev.pointsman.gateway.app.LocalGateway;
import dev.pointsman.gateway.config.GatewayConfig;
import dev.pointsman.gateway.config.ListenSection;
import dev.pointsman.gateway.config.PickerSection;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.server.FaultConfig;
import dev.pointsman.sim.server.Fleet;
import dev.pointsman.sim.server.FleetConfig;
import dev.pointsman.sim.server.PodConfig;
import dev.pointsman.testing.Await;
import dev.pointsman.testing.Trusting;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLContext;

/**
 * The whole request path on loopback: simulated pods, the picker (TLS gRPC) scraping them, and the
 * local gateway (TLS, self-signed) in front, plus HTTP/1.1 and HTTP/2 clients trusting it.
 */
final class Stack implements AutoCloseable {
  static final String MODEL = "llama-8b";
  static final String ADAPTER = "sql-lora";

  final Fleet fleet;
  final PickerApp picker;
  final LocalGateway gateway;
  final HttpClient http1;
  final HttpClient http2;
  private final List<String> addresses;

  private Stack(Fleet fleet, PickerApp picker, LocalGateway gateway) throws Exception {
    this.fleet = fleet;
    this.picker = picker;
    this.gateway = gateway;
    this.addresses = fleet.urls().stream().map(u -> u.substring("http://".length())).toList();
    SSLContext ssl = trusting(gateway.certificatePem().orElseThrow());
    this.http1 = client(ssl, HttpClient.Version.HTTP_1_1);
    this.http2 = client(ssl, HttpClient.Version.HTTP_2);
  }

  /** A pod of the default model on a fast GPU. */
  static PodConfig pod(String name, String model, List<String> adapters) {
    return new PodConfig(
        name, "H100-80", model, null, null, null, null, adapters, null, FaultConfig.NONE);
  }

  /**
   * Starts pods, a picker whose config {@code pickerYaml} formats with the pod addresses (in pod
   * order), and a gateway adjusted by {@code gatewayTweak}.
   */
  static Stack start(
      List<PodConfig> pods, String pickerYaml, UnaryOperator<GatewayConfig> gatewayTweak)
      throws Exception {
    return start(pods, pickerYaml, (picker, config) -> gatewayTweak.apply(config));
  }

  /** As above, with a tweak that also sees the started picker (its port, its certificate). */
  static Stack start(
      List<PodConfig> pods,
      String pickerYaml,
      BiFunction<PickerApp, GatewayConfig, GatewayConfig> gatewayTweak)
      throws Exception {
    Fleet fleet = Fleet.start(new FleetConfig(pods, 1L, null), GpuProfiles.builtIn());
    List<Object> args = new ArrayList<>();
    fleet.urls().forEach(u -> args.add(u.substring("http://".length())));
    PickerApp picker =
        new PickerApp(PickerConfig.parse(pickerYaml.formatted(args.toArray())), null).start();
    Await.until("the picker has scraped every pod", picker::ready);
    GatewayConfig config =
        gatewayTweak.apply(
            picker,
            GatewayConfig.of(
                new ListenSection("127.0.0.1", 0, null, null, null, null),
                PickerSection.trusting(
                    "localhost:" + picker.grpcPort(), picker.certificatePem().orElseThrow())));
    return new Stack(fleet, picker, LocalGateway.start(config));
  }

  /** The standard picker config header: loopback listeners, fast scraping. */
  static String pickerHeader() {
    return """
        grpc: {port: 0, host: 127.0.0.1, drainSeconds: 0}
        admin: {port: 0, host: 127.0.0.1}
        scrape: {intervalMillis: 50, timeoutMillis: 500, failureThreshold: 2, \
        staleAfterMillis: 300, unavailableAfterMillis: 400}
        """;
  }

  String address(int pod) {
    return addresses.get(pod);
  }

  URI uri(String path) {
    return URI.create("https://127.0.0.1:" + gateway.port() + path);
  }

  HttpRequest.Builder post(String path, String json) {
    return HttpRequest.newBuilder(uri(path))
        .timeout(Duration.ofSeconds(20))
        .header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json));
  }

  HttpResponse<String> send(HttpClient client, HttpRequest request) throws Exception {
    return client.send(request, HttpResponse.BodyHandlers.ofString());
  }

  /** The picker's Prometheus text. */
  String pickerMetrics() throws Exception {
    HttpRequest req =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + picker.adminPort() + "/metrics"))
            .build();
    return HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofString()).body();
  }

  /** Sets a pod's faults through the simulator's admin API. */
  void faults(int pod, String json) throws Exception {
    HttpRequest req =
        HttpRequest.newBuilder(URI.create(fleet.urls().get(pod) + "/admin/faults"))
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build();
    int status =
        HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofString()).statusCode();
    if (status != 200) {
      throw new AssertionError("setting faults on pod " + pod + " answered " + status);
    }
  }

  static String chat(String model, String text, boolean stream, int maxTokens) {
    return """
        {"model": "%s", "messages": [{"role": "user", "content": "%s"}], "stream": %s, \
        "stream_options": {"include_usage": true}, "max_tokens": %d}"""
        .formatted(model, text, stream, maxTokens);
  }

  static String completion(String model, String prompt, boolean stream, int maxTokens) {
    return """
        {"model": "%s", "prompt": "%s", "stream": %s, \
        "stream_options": {"include_usage": true}, "max_tokens": %d}"""
        .formatted(model, prompt, stream, maxTokens);
  }

  private static HttpClient client(SSLContext ssl, HttpClient.Version version) {
    return HttpClient.newBuilder()
        .sslContext(ssl)
        .version(version)
        .connectTimeout(Duration.ofSeconds(5))
        .build();
  }

  static SSLContext trusting(String pem) throws Exception {
    return Trusting.pem(pem);
  }

  @Override
  public void close() {
    gateway.close();
    picker.close();
    fleet.close();
  }
}
