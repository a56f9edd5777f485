package dev.pointsman.body.router;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.pointsman.extproc.BodyMode;
import dev.pointsman.extproc.ExtProcSettings;
import dev.pointsman.extproc.ExternalProcessorService;
import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.extproc.testing.Replies;
import dev.pointsman.inference.model.ModelDiscovery;
import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.inference.request.RequestParser;
import io.envoyproxy.envoy.service.ext_proc.v3.CommonResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The standalone body router over Envoy's exact message sequences. */
class BodyRouterTest {
  private static final String YAML =
      """
      models:
        - name: llama-3.1-8b
          aliases: [llama]
          pools: [{pool: gpu-a}]
        - name: sql-lora
          baseModel: llama-3.1-8b
      """;

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final AtomicReference<ModelResolver> resolver = new AtomicReference<>();
  private Server server;
  private ManagedChannel channel;

  private void start(ExtProcSettings settings) throws Exception {
    resolver.set(ModelResolver.of(BodyRouterConfig.parse(YAML).modelsConfig()));
    BodyRouterMetrics metrics = new BodyRouterMetrics(registry);
    String name = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(
                new ExternalProcessorService(
                    new BodyRouterHandler(resolver::get, metrics),
                    RequestParser.withDefaults(),
                    settings,
                    metrics,
                    System::nanoTime))
            .build()
            .start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
  }

  @AfterEach
  void tearDown() {
    if (channel != null) {
      channel.shutdownNow();
      server.shutdownNow();
    }
  }

  @Test
  void bufferedByDefaultSetsModelHeadersOnTheBodyReply() throws Exception {
    start(BodyRouterConfig.DEFAULT_SETTINGS);
    EnvoyReplay s = EnvoyReplay.open(channel).requestHeaders("POST", "/v1/chat/completions", false);
    assertThat(s.next().hasRequestHeaders()).as("headers continued at once").isTrue();
    s.requestBody(Replies.chat("sql-lora", "select", false), true);
    ProcessingResponse body = s.next();
    CommonResponse common = body.getRequestBody().getResponse();
    assertThat(common.getClearRouteCache()).isTrue();
    assertThat(Replies.setHeaders(common))
        .containsEntry("x-gateway-model-name", "sql-lora")
        .containsEntry("x-gateway-base-model-name", "llama-3.1-8b")
        .doesNotContainKey("x-gateway-destination-endpoint");
    assertThat(body.hasDynamicMetadata()).isFalse();
    assertThat(
            registry
                .get("pointsman.bodyrouter.requests")
                .tag("model_name", "sql-lora")
                .counter()
                .count())
        .isEqualTo(1.0);
  }

  @Test
  void anAliasIsReportedAsRequestedWithItsBaseModel() throws Exception {
    start(BodyRouterConfig.DEFAULT_SETTINGS);
    EnvoyReplay s = EnvoyReplay.open(channel).requestHeaders("POST", "/v1/completions", false);
    s.next();
    s.requestBody("{\"prompt\":\"hi\",\"model\":\"llama\"}".getBytes(StandardCharsets.UTF_8), true);
    assertThat(Replies.setHeaders(s.next().getRequestBody().getResponse()))
        .containsEntry("x-gateway-model-name", "llama")
        .containsEntry("x-gateway-base-model-name", "llama-3.1-8b");
  }

  @Test
  void fullDuplexHoldsHeadersThenEchoesTheBody() throws Exception {
    start(new ExtProcSettings(BodyMode.FULL_DUPLEX_STREAMED, BodyMode.NONE, 1 << 20, 62_000));
    byte[] body = Replies.chat("llama-3.1-8b", "stream it", true);
    EnvoyReplay s = EnvoyReplay.open(channel).requestHeaders("POST", "/v1/chat/completions", false);
    s.requestBodyChunked(body, 16);
    ProcessingResponse headers = s.next();
    Map<String, String> set = Replies.setHeaders(headers.getRequestHeaders().getResponse());
    assertThat(set).containsEntry("x-gateway-model-name", "llama-3.1-8b");
    assertThat(Replies.echoedChunk(s.next()).getBody().toByteArray()).isEqualTo(body);
  }

  @Test
  void unknownModelIs404AndIsCounted() throws Exception {
    start(BodyRouterConfig.DEFAULT_SETTINGS);
    EnvoyReplay s = EnvoyReplay.open(channel).requestHeaders("POST", "/v1/completions", false);
    s.next();
    s.requestBody("{\"model\":\"nope\",\"prompt\":\"x\"}".getBytes(StandardCharsets.UTF_8), true);
    Replies.assertError(s.next(), 404, null);
    assertThat(registry.get("pointsman.bodyrouter.rejected").tag("status", "404").counter().count())
        .isEqualTo(1.0);
  }

  @Test
  void aPathOffTheInferenceApiIs404WithoutHeadersAndIsCountedOnce() throws Exception {
    start(BodyRouterConfig.DEFAULT_SETTINGS);
    EnvoyReplay s =
        EnvoyReplay.open(channel).requestHeaders("POST", "/v1/load_lora_adapter", false);

    ProcessingResponse r = s.next();

    Replies.assertError(r, 404, "unknown_path");
    assertThat(s.awaitEnd()).isTrue();
    assertThat(registry.get("pointsman.bodyrouter.rejected").tag("status", "404").counter().count())
        .isEqualTo(1.0);
  }

  @Test
  void routedPathsAreReadFromItsConfig() {
    BodyRouterConfig config =
        BodyRouterConfig.parse(
            YAML + "extProc: {routedPaths: [/v1/chat/completions, /v1/score]}\n");

    assertThat(config.extProcSettings().paths().routed())
        .containsExactly("/v1/chat/completions", "/v1/score");
  }

  @Test
  void discoveryAddsAdaptersAPoolReportsWithoutARestart() throws Exception {
    start(BodyRouterConfig.DEFAULT_SETTINGS);
    HttpServer pool = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    pool.createContext(
        "/v1/models",
        ex -> {
          byte[] json =
              ("{\"object\":\"list\",\"data\":[{\"id\":\"llama-3.1-8b\",\"object\":\"model\"},"
                      + "{\"id\":\"new-lora\",\"object\":\"model\",\"parent\":\"llama-3.1-8b\"}]}")
                  .getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(200, json.length);
          ex.getResponseBody().write(json);
          ex.close();
        });
    pool.start();
    try {
      ModelDiscovery discovery =
          new ModelDiscovery(
              List.of(
                  new ModelDiscovery.Source(
                      "gpu-a",
                      URI.create(
                          "http://127.0.0.1:" + pool.getAddress().getPort() + "/v1/models"))),
              HttpClient.newHttpClient(),
              Duration.ofSeconds(5),
              resolver);
      assertThat(discovery.pollOnce()).isEqualTo(1);
    } finally {
      pool.stop(0);
    }
    EnvoyReplay s = EnvoyReplay.open(channel).requestHeaders("POST", "/v1/completions", false);
    s.next();
    s.requestBody(
        "{\"model\":\"new-lora\",\"prompt\":\"x\"}".getBytes(StandardCharsets.UTF_8), true);
    assertThat(Replies.setHeaders(s.next().getRequestBody().getResponse()))
        .containsEntry("x-gateway-base-model-name", "llama-3.1-8b");
  }

  @Test
  void configNeedsModelsOrDiscoveryAndDefaultsToBuffered() {
    assertThat(BodyRouterConfig.parse(YAML).extProcSettings().requestBodyMode())
        .isEqualTo(BodyMode.BUFFERED);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> BodyRouterConfig.parse("grpc: {port: 1}\n"))
        .hasMessageContaining("models: []");
  }
}
