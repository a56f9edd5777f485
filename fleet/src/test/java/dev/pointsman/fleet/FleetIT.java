package dev.pointsman.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.fleet.app.FleetApp;
import dev.pointsman.fleet.config.FleetConfig;
import dev.pointsman.gateway.app.LocalGateway;
import dev.pointsman.gateway.config.GatewayConfig;
import dev.pointsman.gateway.config.ListenSection;
import dev.pointsman.gateway.config.PickerSection;
import dev.pointsman.testing.Await;
import dev.pointsman.testing.TestCa;
import dev.pointsman.testing.Trusting;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fleet tier over real sockets: two clusters (simulated pods, a picker publishing its summary
 * over mutual TLS, a local gateway), the fleet reading both summaries, and a local gateway in front
 * of the fleet that routes each request to the cluster gateway the fleet names. East is spot
 * (cheap), west on-demand; from region {@code us} both are near, from {@code eu} east is too far
 * for the objective.
 */
class FleetIT {
  @TempDir Path dir;
  private ClusterStack east;
  private ClusterStack west;
  private FleetApp fleet;
  private LocalGateway front;
  private HttpClient client;

  /** What one request through the front gateway got. */
  record Answer(int status, String cluster, String pod) {}

  @BeforeEach
  void start() throws Exception {
    TestCa ca = TestCa.create(dir, "pointsman-test-ca");
    east = ClusterStack.start("east", ca);
    west = ClusterStack.start("west", ca);
    TestCa.Issued me = ca.client("fleet");
    String yaml =
        """
        grpc: {port: 0, host: 127.0.0.1, drainSeconds: 5}
        admin: {port: 0, host: 127.0.0.1}
        regions: [us, eu]
        sloTtftMillis: 2000
        summaries: {intervalMillis: 50, timeoutMillis: 500, \
        certChain: "%s", privateKey: "%s", caFile: "%s"}
        failover: {staleAfterMillis: 1000, summaryFailures: 2, errorRate: 0.5, minRequests: 4, \
        windowMillis: 10000, ejectMillis: 2000, rampMillis: 2000}
        clusters:
          - {name: east, gateway: "%s", summary: "%s", authority: localhost, tier: spot, \
        pricePerGpuHour: 1.1, rttMillis: {us: 5, eu: 5000}}
          - {name: west, gateway: "%s", summary: "%s", authority: localhost, tier: on-demand, \
        pricePerGpuHour: 4.0, rttMillis: {us: 40, eu: 10}}
        """
            .formatted(
                me.certChain(),
                me.privateKey(),
                ca.caFile(),
                east.gatewayAddress(),
                east.summaryAddress(),
                west.gatewayAddress(),
                west.summaryAddress());
    fleet = new FleetApp(FleetConfig.parse(yaml)).start();
    Await.until(
        "the fleet has read both clusters' summaries",
        () -> fleet.share("east") == 1 && fleet.share("west") == 1);
    front =
        LocalGateway.start(
            GatewayConfig.of(
                new ListenSection("127.0.0.1", 0, null, null, null, null),
                PickerSection.trusting(
                    "localhost:" + fleet.grpcPort(), fleet.certificatePem().orElseThrow())));
    client =
        HttpClient.newBuilder()
            .sslContext(Trusting.pem(front.certificatePem().orElseThrow()))
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
  }

  @AfterEach
  void stop() {
    for (AutoCloseable c : new AutoCloseable[] {front, fleet, east, west}) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (Exception e) {
        // keep closing the rest
      }
    }
  }

  @Test
  void requestsGoToTheCheapClusterAndAFarRegionToTheNearOne() throws Exception {
    for (int i = 0; i < 4; i++) {
      Answer us = send("us", "hello " + i);
      assertThat(us.status()).isEqualTo(200);
      assertThat(us.cluster()).isEqualTo("east");
      assertThat(us.pod()).startsWith("east-");
    }
    Answer eu = send("eu", "bonjour");

    assertThat(eu.status()).isEqualTo(200);
    assertThat(eu.cluster()).isEqualTo("west");
    assertThat(eu.pod()).startsWith("west-");
  }

  @Test
  void aConversationGoesBackToTheClusterHoldingItsPrefix() throws Exception {
    String turn1 = "You are a helpful assistant who answers briefly. ".repeat(8);
    // the first turn comes from eu: east is too far, so west serves it and holds its prefix
    assertThat(send("eu", turn1).cluster()).isEqualTo("west");
    Await.until(
        "west advertises the conversation's prefix",
        () -> west.picker().summary().orElseThrow().pools().getFirst().hotPrefixes().size() == 1);
    Await.until("the fleet has read that summary", () -> fleetSeesHotPrefixOn("west"));

    // the next turn comes from us, where east is cheaper and nearer: affinity wins
    Answer turn2 = send("us", turn1 + "And what about the second question? ".repeat(4));
    Answer stranger = send("us", "An unrelated conversation that starts elsewhere. ".repeat(8));

    assertThat(turn2.status()).isEqualTo(200);
    assertThat(turn2.cluster()).isEqualTo("west");
    assertThat(stranger.cluster()).isEqualTo("east");
  }

  @Test
  void aClusterShuttingDownIsDrainedAndNoRequestIsLost() throws Exception {
    AtomicBoolean running = new AtomicBoolean(true);
    ConcurrentLinkedQueue<Answer> during = new ConcurrentLinkedQueue<>();
    ExecutorService load = Executors.newFixedThreadPool(3);
    List<Future<?>> loops = threeLoops(load, running, text -> during.add(send("us", text)));
    Await.until(
        "requests flow to east", () -> during.stream().anyMatch(a -> "east".equals(a.cluster())));

    // east's picker shuts down as on SIGTERM: its summary goes first, ext_proc serves through the
    // grace period, which lasts until the fleet has drained east and east has answered everything
    // the fleet sent it
    east.drainPicker(
        grace ->
            Await.until(
                "the fleet drained east and east answered all it was sent",
                Duration.ofSeconds(20),
                () -> fleet.share("east") == 0 && east.answered() == fleet.routed("east")));
    List<Answer> after = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      after.add(send("us", "after " + i));
    }
    running.set(false);
    for (Future<?> f : loops) {
      f.get(30, TimeUnit.SECONDS);
    }
    load.shutdown();

    assertThat(during).isNotEmpty().allSatisfy(a -> assertThat(a.status()).isEqualTo(200));
    assertThat(after)
        .allSatisfy(
            a -> {
              assertThat(a.status()).isEqualTo(200);
              assertThat(a.cluster()).isEqualTo("west");
            });
  }

  @Test
  void aClusterGatewayThatDiesAbruptlyLosesNoRequestSentAfterwards() throws Exception {
    AtomicBoolean running = new AtomicBoolean(true);
    // 0: before the gateway started dying, 1: while it was closing, 2: once it was gone
    AtomicInteger phase = new AtomicInteger();
    ConcurrentLinkedQueue<Answer> before = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<Answer> after = new ConcurrentLinkedQueue<>();
    ExecutorService load = Executors.newFixedThreadPool(3);
    List<Future<?>> loops =
        threeLoops(
            load,
            running,
            text -> {
              int sentIn = phase.get();
              Answer a = sendOrFailure("us", text);
              if (sentIn != 1) { // sent while east was closing: may fail, not judged
                (sentIn == 0 ? before : after).add(a);
              }
            });
    // enough successes in east's error window that the few requests cut below cannot drain it
    Await.until(
        "requests flow to east",
        () -> before.stream().filter(a -> "east".equals(a.cluster())).count() >= 20);

    // east's gateway dies: its connections are cut, new ones refused; its picker still publishes,
    // so only the refusals the fleet hears of (the front's retries onto west) drain east
    phase.set(1);
    east.killGateway();
    phase.set(2);
    Await.until(
        "the fleet drained east on its refusals, with requests sent after the kill",
        Duration.ofSeconds(15),
        () -> fleet.share("east") == 0 && after.size() >= 10);
    running.set(false);
    for (Future<?> f : loops) {
      f.get(30, TimeUnit.SECONDS);
    }
    load.shutdown();

    // requests in flight on east when it started dying may fail, at most one per client loop
    // (those sent while it was closing may fail too: its picker channel closes before its
    // connections, which can still take a request)
    assertThat(before.stream().filter(a -> a.status() != 200).count()).isLessThanOrEqualTo(3);
    // none sent afterwards is lost: the ones the fleet still sent to east were refused there
    // before any byte reached it and resent to west, the fallback the fleet named
    assertThat(after)
        .allSatisfy(
            a -> {
              assertThat(a.status()).isEqualTo(200);
              assertThat(a.cluster()).isEqualTo("west");
            });
    assertThat(frontRetries()).isPositive();
  }

  /** One client request of a load loop, given its text. */
  @FunctionalInterface
  private interface Sender {
    void send(String text) throws Exception;
  }

  /** Three client loops on {@code load}, each sending until {@code running} turns false. */
  private static List<Future<?>> threeLoops(
      ExecutorService load, AtomicBoolean running, Sender sender) {
    List<Future<?>> loops = new ArrayList<>();
    for (int t = 0; t < 3; t++) {
      int thread = t;
      loops.add(
          load.submit(
              () -> {
                for (int i = 0; running.get(); i++) {
                  sender.send("load " + thread + " " + i);
                }
                return null;
              }));
    }
    return loops;
  }

  private double frontRetries() {
    var c =
        front
            .metrics()
            .registry()
            .find("pointsman_gateway_upstream_retries")
            .tag("reason", "connect")
            .counter();
    return c == null ? 0 : c.count();
  }

  /** {@link #send}, or status -1 when the exchange failed below HTTP (a cut connection). */
  private Answer sendOrFailure(String region, String text) throws Exception {
    try {
      return send(region, text);
    } catch (java.io.IOException e) {
      return new Answer(-1, null, null);
    }
  }

  @Test
  void aClusterThatDiesIsDrainedWithinSecondsAndTheOtherTakesOver() throws Exception {
    assertThat(send("us", "before").cluster()).isEqualTo("east");

    east.killPicker();
    Await.until("the fleet drained east", Duration.ofSeconds(5), () -> fleet.share("east") == 0);
    List<Answer> after = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      after.add(send("us", "after " + i));
    }

    assertThat(after)
        .allSatisfy(
            a -> {
              assertThat(a.status()).isEqualTo(200);
              assertThat(a.cluster()).isEqualTo("west");
              assertThat(a.pod()).startsWith("west-");
            });
  }

  @Test
  void aClusterBackFromADrainRampsUpAndTakesItsTrafficBack() throws Exception {
    east.killPicker();
    Await.until("the fleet drained east", Duration.ofSeconds(5), () -> fleet.share("east") == 0);

    east.restartPicker();
    // the cluster gateway's channel to the picker may be in gRPC's reconnect backoff; Envoy's
    // health check would find the picker back, the local gateway is told
    east.gateway.reconnectPicker();

    Await.until("east ramps up", () -> "ramping".equals(state("east")));
    double during = fleet.share("east");
    Await.until("east has its full share again", () -> fleet.share("east") == 1);
    assertThat(during).isGreaterThanOrEqualTo(0).isLessThan(1);
    assertThat(state("east")).isEqualTo("up");
    Answer back = send("us", "back again");
    assertThat(back.status()).isEqualTo(200);
    assertThat(back.cluster()).isEqualTo("east");
  }

  @SuppressWarnings("unchecked")
  private String state(String cluster) {
    return (String) ((Map<String, Object>) fleet.clustersReport().get(cluster)).get("state");
  }

  private boolean fleetSeesHotPrefixOn(String cluster) {
    @SuppressWarnings("unchecked")
    Map<String, Object> one = (Map<String, Object>) fleet.clustersReport().get(cluster);
    List<?> pools = (List<?>) one.get("pools");
    return !pools.isEmpty()
        && !((dev.pointsman.picker.summary.PoolSummary) pools.getFirst()).hotPrefixes().isEmpty();
  }

  private Answer send(String region, String text) throws Exception {
    String body =
        """
        {"model": "%s", "messages": [{"role": "user", "content": "%s"}], "max_tokens": 3}"""
            .formatted(ClusterStack.MODEL, text);
    HttpResponse<String> res =
        client.send(
            HttpRequest.newBuilder(
                    URI.create("https://127.0.0.1:" + front.port() + "/v1/chat/completions"))
                .timeout(Duration.ofSeconds(20))
                .header("content-type", "application/json")
                .header("x-pointsman-region", region)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return new Answer(
        res.statusCode(),
        res.headers().firstValue("x-pointsman-cluster").orElse(null),
        res.headers().firstValue("x-pointsman-served-by").orElse(null));
  }
}
