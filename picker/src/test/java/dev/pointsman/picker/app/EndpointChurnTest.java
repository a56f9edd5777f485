package dev.pointsman.picker.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.extproc.testing.Replies;
import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.picker.config.PoolConfig;
import dev.pointsman.picker.datastore.Datastore;
import dev.pointsman.picker.datastore.PoolDefinition;
import dev.pointsman.picker.routing.PolicyRegistry;
import dev.pointsman.picker.scheduling.AppProtocol;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.testing.PickerAdmin;
import dev.pointsman.picker.testing.PickerChannels;
import dev.pointsman.testing.Await;
import dev.pointsman.testing.LiveObjects;
import io.grpc.ManagedChannel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Pods come and go with new addresses (a rollout, a restart, a node drained: in Kubernetes each
 * comes back with a new IP), and the picker forgets each address that left: over real sockets, a
 * pool of four model servers is replaced two at a time, each new one scraped and routed to (so that
 * every per-endpoint structure of the picker has an entry for it), and what the picker holds per
 * endpoint does not grow with the addresses it has seen, nor does its {@code /metrics} keep a
 * series of an address gone.
 */
class EndpointChurnTest {
  /** The picker's per-endpoint state, one class per structure that keeps an entry by address. */
  private static final List<String> PER_ENDPOINT =
      List.of(
          "dev.pointsman.picker.datastore.Health",
          "dev.pointsman.picker.scrape.TargetTask",
          "dev.pointsman.picker.scrape.HttpConnection",
          "dev.pointsman.picker.scheduling.prefix.PrefixIndex$Lru",
          "dev.pointsman.picker.scheduling.InFlightTracker$Counters",
          "dev.pointsman.picker.scheduling.latency.RatioFit",
          "dev.pointsman.picker.scheduling.latency.OffsetRatioFit");

  private static final String EXPOSITION =
      """
      vllm:num_requests_waiting{model_name="m"} 0
      vllm:num_requests_running{model_name="m"} 1
      vllm:kv_cache_usage_perc{model_name="m"} 0.2
      vllm:cache_config_info{block_size="16",num_gpu_blocks="20000"} 1
      """;

  private final Deque<HttpServer> servers = new ArrayDeque<>();
  private final List<String> gone = new ArrayList<>();
  private PoolConfig pool;
  private final AtomicReference<Datastore> store = new AtomicReference<>();
  private PickerApp app;
  private ManagedChannel channel;

  @BeforeEach
  void setUp() {
    for (int i = 0; i < 4; i++) {
      servers.add(server());
    }
    PickerConfig config =
        PickerConfig.parse(
            """
            grpc: {port: 0, host: 127.0.0.1}
            admin: {port: 0, host: 127.0.0.1}
            scrape: {intervalMillis: 20, timeoutMillis: 200}
            pools:
              - name: gpu
                engine: vllm
                models: [m]
                endpoints: [{address: "%s"}, {address: "%s"}, {address: "%s"}, {address: "%s"}]
            """
                .formatted(servers.stream().map(EndpointChurnTest::address).toArray()));
    pool = config.pool("gpu");
    PoolSource file = new LocalPoolSource(config, null);
    PoolSource churning =
        new PoolSource() {
          @Override
          public void start(
              Datastore datastore,
              PolicyRegistry policies,
              AtomicReference<ModelResolver> resolver) {
            store.set(datastore);
            file.start(datastore, policies, resolver);
          }

          @Override
          public boolean ready() {
            return true;
          }
        };
    app = new PickerApp(config, null, churning).start();
    channel = PickerChannels.trusting(app);
    Await.until("the picker is ready", app::ready);
  }

  @AfterEach
  void tearDown() throws Exception {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    app.close();
    servers.forEach(s -> s.stop(0));
  }

  @Test
  void whatThePickerHoldsPerEndpointDoesNotGrowWithTheAddressesItHasSeen() throws Exception {
    churn(10);
    Map<String, Long> early = LiveObjects.count(PER_ENDPOINT);
    churn(50); // 100 more addresses come and go

    assertThat(early.get("dev.pointsman.picker.scheduling.prefix.PrefixIndex$Lru"))
        .as("every structure is exercised: the prefix index holds the pods routed to")
        .isPositive();
    // the last pods gone close their connections on the event loop: wait for that, not longer
    Await.until(
        "no per-endpoint structure holds more than after the first waves",
        Duration.ofSeconds(15),
        () ->
            LiveObjects.count(PER_ENDPOINT).entrySet().stream()
                .allMatch(e -> e.getValue() <= early.get(e.getKey()) + 2),
        () -> LiveObjects.count(PER_ENDPOINT) + " against " + early + " after 10 waves");
    String metrics = admin("/metrics");
    assertThat(gone).hasSize(120);
    for (String address : gone) {
      assertThat(metrics).as("series of an address gone").doesNotContain("\"" + address + "\"");
    }
  }

  /** {@code waves} times: two new servers join, each is routed to, and the two oldest leave. */
  private void churn(int waves) throws Exception {
    for (int w = 0; w < waves; w++) {
      servers.add(server());
      servers.add(server());
      publish();
      Await.until("the new pods are scraped", () -> app.datastore().available("gpu") == 6);
      for (int i = 0; i < 6; i++) {
        route(
            "wave "
                + w
                + " request "
                + i
                + ": "
                + "a prompt long enough to fill blocks. ".repeat(8));
      }
      for (int i = 0; i < 2; i++) {
        HttpServer old = servers.removeFirst();
        gone.add(address(old));
        old.stop(0);
      }
      publish();
      Await.until("the old pods are gone", () -> app.datastore().available("gpu") == 4);
    }
  }

  private void publish() {
    List<Endpoint> endpoints = new ArrayList<>();
    for (HttpServer s : servers) {
      endpoints.add(new Endpoint(address(s), "gpu"));
    }
    store
        .get()
        .setPools(
            List.of(
                new PoolDefinition(
                    "gpu", pool.engineType(), endpoints, AppProtocol.HTTP, pool.metrics())));
  }

  /** Routes a request, answers it as its model server would, and ends its stream. */
  private void route(String prompt) {
    EnvoyReplay s = EnvoyReplay.open(channel);
    s.requestHeaders("POST", "/v1/chat/completions", false);
    s.requestBody(Replies.chat("m", prompt, true), true);
    Map<String, String> set = Replies.setHeaders(s.next().getRequestHeaders().getResponse());
    assertThat(set).containsKey("x-gateway-destination-endpoint");
    s.next(); // the body, echoed
    s.responseHeaders(200, false, null);
    s.next();
    s.responseBody("data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n", false);
    s.next();
    s.responseBody("data: [DONE]\n\n", true);
    s.next();
    s.halfClose();
    assertThat(s.awaitEnd()).isTrue();
  }

  private static HttpServer server() {
    try {
      HttpServer s =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      s.createContext(
          "/metrics",
          exchange -> {
            byte[] body = EXPOSITION.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
          });
      s.start();
      return s;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String address(HttpServer s) {
    return "127.0.0.1:" + s.getAddress().getPort();
  }

  private String admin(String path) throws Exception {
    return PickerAdmin.get(app, path);
  }
}
