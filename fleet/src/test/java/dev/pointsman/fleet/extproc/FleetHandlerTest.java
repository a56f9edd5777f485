package dev.pointsman.fleet.extproc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.extproc.Completion;
import dev.pointsman.extproc.RequestHead;
import dev.pointsman.extproc.Responses;
import dev.pointsman.extproc.Usage;
import dev.pointsman.extproc.Verdict;
import dev.pointsman.fleet.config.FleetConfig;
import dev.pointsman.fleet.health.ClusterHealth;
import dev.pointsman.fleet.routing.Cluster;
import dev.pointsman.fleet.summary.Received;
import dev.pointsman.fleet.telemetry.FleetMetrics;
import dev.pointsman.inference.error.RequestRejectedException;
import dev.pointsman.inference.request.ApiKind;
import dev.pointsman.inference.request.ParsedRequest;
import dev.pointsman.picker.config.ReplicationSection;
import dev.pointsman.picker.replication.Replicator;
import dev.pointsman.picker.summary.ClusterSummary;
import dev.pointsman.picker.summary.HotPrefixes;
import dev.pointsman.picker.summary.PoolSummary;
import dev.pointsman.testing.Await;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The handler between the protocol and the chooser: headers in, destination and health out. */
class FleetHandlerTest {
  private static final long MS = 1_000_000L;
  private static final FleetConfig CONFIG =
      FleetConfig.parse(
          """
          regions: [us, eu]
          sloTtftMillis: 1000
          objectives: [{name: batch, priority: -1}]
          summaries: {certChain: f.crt, privateKey: f.key, caFile: ca.pem}
          failover: {staleAfterMillis: 5000, minRequests: 4, errorRate: 0.5, ejectMillis: 3000, \
          rampMillis: 0}
          clusters:
            - {name: spot, gateway: "10.0.0.1:8443", summary: "s:1", tier: spot, pricePerGpuHour: 1,
               rttMillis: {us: 10, eu: 2000}}
            - {name: od, gateway: "10.0.0.2:8443", summary: "o:1", tier: on-demand,
               pricePerGpuHour: 4, rttMillis: {us: 50, eu: 10}}
          """);

  private final AtomicLong now = new AtomicLong(1);
  private final Map<String, AtomicReference<Received>> summaries = new HashMap<>();
  private final List<Cluster> clusters = new ArrayList<>();
  private FleetHandler handler;

  @BeforeEach
  void setUp() {
    for (var c : CONFIG.clusters()) {
      ClusterHealth health = new ClusterHealth(CONFIG.failover().toFailover());
      AtomicReference<Received> ref = new AtomicReference<>();
      summaries.put(c.name(), ref);
      clusters.add(new Cluster(c, health, ref::get));
    }
    summary("spot", 300, List.of());
    summary("od", 100, List.of());
    handler =
        new FleetHandler(
            CONFIG,
            clusters,
            () -> 0.5,
            now::get,
            new FleetMetrics(new SimpleMeterRegistry(), clusters, now::get));
  }

  private void summary(String cluster, double ttft, List<Long> hot) {
    summary(cluster, ttft, 0, hot);
  }

  private void summary(String cluster, double ttft, double perRequest, List<Long> hot) {
    summaries
        .get(cluster)
        .set(
            Received.accept(
                cluster,
                new ClusterSummary(
                    1,
                    cluster,
                    1,
                    0,
                    250,
                    1000,
                    List.of(
                        new PoolSummary(
                            "main",
                            List.of("llama"),
                            2,
                            ttft < 0 ? 0 : 2,
                            ttft,
                            perRequest,
                            0.1,
                            false,
                            0,
                            List.of(),
                            hot,
                            -1)))));
    clusters.stream()
        .filter(c -> c.name().equals(cluster))
        .forEach(c -> c.health().summaryReceived(now.get()));
  }

  private static RequestHead head(Map<String, String> headers, String objective) {
    return new RequestHead(
        "POST",
        "/v1/chat/completions",
        "application/json",
        "r1",
        false,
        objective,
        null,
        -1,
        null,
        null,
        headers);
  }

  private static ParsedRequest body(String prompt) {
    return new ParsedRequest(
        "llama", true, false, prompt, prompt.length(), 10, OptionalInt.empty(), ApiKind.CHAT);
  }

  private Verdict decide(Map<String, String> headers) {
    return handler.decide(head(headers, null), body("hello"));
  }

  private static String gateway(Verdict v) {
    assertThat(v).isInstanceOf(Verdict.Forward.class);
    Verdict.Forward f = (Verdict.Forward) v;
    assertThat(f.setHeaders()).containsEntry(Responses.DESTINATION, f.destination());
    return f.destination();
  }

  @Test
  void theCheapClusterWithinTheObjectiveGetsItAsTheDestinationHeaderAndMetadata() {
    assertThat(gateway(decide(Map.of()))).isEqualTo("10.0.0.1:8443");
  }

  @Test
  void theRegionHeaderChangesTheRoundTrip() {
    assertThat(gateway(decide(Map.of("x-pointsman-region", "eu")))).isEqualTo("10.0.0.2:8443");
    assertThat(gateway(decide(Map.of("x-pointsman-region", "mars")))).isEqualTo("10.0.0.1:8443");
  }

  @Test
  void aTighterObjectiveInTheRequestSpillsToTheFasterDearerCluster() {
    // spot predicts 310 ms, on-demand 150 ms; 80% of 350 ms is 280 ms
    assertThat(gateway(decide(Map.of("x-slo-ttft-ms", "350")))).isEqualTo("10.0.0.2:8443");
  }

  @Test
  void aBurstBetweenTwoSummariesSpillsOnceTheQueueItBuildsWouldPassTheMark() {
    // spot: 10 ms away, 300 ms predicted, +100 ms per request sent; the mark is 800 ms
    summary("spot", 300, 100, List.of());
    List<String> burst = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      burst.add(gateway(decide(Map.of())));
    }

    assertThat(burst.subList(0, 5)).containsOnly("10.0.0.1:8443");
    assertThat(burst.subList(5, 7)).containsOnly("10.0.0.2:8443");
    summary("spot", 300, 100, List.of()); // the next summary counts what was sent
    assertThat(gateway(decide(Map.of()))).isEqualTo("10.0.0.1:8443");
  }

  @Test
  void anUnreadableObjectiveIsA400NamingTheHeader() {
    Verdict v = decide(Map.of("x-slo-ttft-ms", "soon"));

    assertThat(v).isInstanceOf(Verdict.Reject.class);
    Verdict.Reject r = (Verdict.Reject) v;
    assertThat(r.error().httpStatus()).isEqualTo(400);
    assertThat(r.error().code()).isEqualTo("invalid_slo_header");
    assertThat(r.error().message()).contains("x-slo-ttft-ms: 'soon'");
  }

  @Test
  void sheddableTrafficWithOnlyOnDemandServingIsA429WithRetryAfter() {
    summary("spot", -1, List.of());

    Verdict v = handler.decide(head(Map.of(), "batch"), body("hello"));

    assertThat(v).isInstanceOf(Verdict.Reject.class);
    assertThat(((Verdict.Reject) v).error().httpStatus()).isEqualTo(429);
    assertThat(((Verdict.Reject) v).retryAfterSeconds()).isEqualTo(1);
    assertThat(gateway(handler.decide(head(Map.of(), null), body("hello"))))
        .isEqualTo("10.0.0.2:8443");
  }

  @Test
  void noServingClusterIsA503() {
    summary("spot", -1, List.of());
    summary("od", -1, List.of());

    Verdict v = decide(Map.of());

    assertThat(((Verdict.Reject) v).error().httpStatus()).isEqualTo(503);
  }

  @Test
  void aHotPrefixDrawsTheConversationBack() {
    String turn1 = "a long system prompt, then the first question. ".repeat(4);
    long[] chain = HotPrefixes.chain("llama", turn1);
    summary("od", 100, List.of(chain[chain.length - 1]));

    Verdict v = handler.decide(head(Map.of(), null), body(turn1 + "a second question"));

    assertThat(gateway(v)).isEqualTo("10.0.0.2:8443");
  }

  @Test
  void failedResponsesDrainTheClusterAndTheResponseNamesIt() {
    for (int i = 0; i < 4; i++) {
      Verdict.Forward f = (Verdict.Forward) decide(Map.of());
      assertThat(f.destination()).isEqualTo("10.0.0.1:8443");
      now.addAndGet(MS);
      assertThat(f.listener().onResponseHeaders(i % 2 == 0 ? 503 : 200, null))
          .containsEntry(FleetHandler.CLUSTER_HEADER, "spot");
      f.listener().onEnd(new Completion(200, 1, 2, Usage.NONE, null, Completion.End.COMPLETED));
    }

    assertThat(gateway(decide(Map.of()))).isEqualTo("10.0.0.2:8443");
    now.addAndGet(3001 * MS);
    summary("spot", 300, List.of());
    assertThat(gateway(decide(Map.of()))).isEqualTo("10.0.0.1:8443");
  }

  @Test
  void theNextClusterIsNamedAsFallbackAndSheddableTrafficGetsNoOnDemandOne() {
    Verdict.Forward f = (Verdict.Forward) decide(Map.of());
    Verdict.Forward shed = (Verdict.Forward) handler.decide(head(Map.of(), "batch"), body("hello"));

    assertThat(f.setHeaders())
        .containsEntry(Responses.DESTINATION, "10.0.0.1:8443")
        .containsEntry(FleetHandler.FALLBACKS_HEADER, "10.0.0.2:8443")
        .containsEntry(FleetHandler.ROUTE_HEADER, "spot+od");
    assertThat(shed.destination()).isEqualTo("10.0.0.1:8443");
    assertThat(shed.setHeaders())
        .doesNotContainKey(FleetHandler.FALLBACKS_HEADER)
        .containsEntry(FleetHandler.ROUTE_HEADER, "spot");
  }

  @Test
  void aDrainedClusterIsNoFallback() {
    summary("od", -1, List.of());

    assertThat(((Verdict.Forward) decide(Map.of())).setHeaders())
        .doesNotContainKey(FleetHandler.FALLBACKS_HEADER)
        .containsEntry(FleetHandler.ROUTE_HEADER, "spot");
  }

  @Test
  void requestsServedByTheirFallbackCountAsRefusedByTheChosenClusterWhichDrains() {
    for (int i = 0; i < 4; i++) {
      Verdict.Forward f = (Verdict.Forward) decide(Map.of());
      assertThat(f.destination()).isEqualTo("10.0.0.1:8443");
      now.addAndGet(MS);
      assertThat(f.listener().onResponseHeaders(200, "10.0.0.2:8443"))
          .containsEntry(FleetHandler.CLUSTER_HEADER, "od");
      f.listener().onEnd(new Completion(200, 1, 2, Usage.NONE, null, Completion.End.COMPLETED));
    }

    // every client got a 200, but spot refused four of four: it is drained
    assertThat(gateway(decide(Map.of()))).isEqualTo("10.0.0.2:8443");
  }

  @Test
  void aStreamThatFailsBeforeAnyResponseCountsAgainstTheClusterACancelDoesNot() {
    for (int i = 0; i < 4; i++) {
      Verdict.Forward f = (Verdict.Forward) decide(Map.of());
      f.listener().onEnd(new Completion(0, -1, 2, Usage.NONE, null, Completion.End.CANCELLED));
    }
    assertThat(gateway(decide(Map.of()))).isEqualTo("10.0.0.1:8443");

    for (int i = 0; i < 4; i++) {
      Verdict.Forward f = (Verdict.Forward) decide(Map.of());
      f.listener().onEnd(new Completion(0, -1, 2, Usage.NONE, null, Completion.End.ERROR));
    }

    assertThat(gateway(decide(Map.of()))).isEqualTo("10.0.0.2:8443");
  }

  @Test
  void aModelNoClusterListsOrNoneAtAllIsJudgedOnEveryPool() {
    ParsedRequest alias =
        new ParsedRequest(
            "llama-alias", true, false, "hi", 2, 1, OptionalInt.empty(), ApiKind.CHAT);
    ParsedRequest none =
        new ParsedRequest(null, true, false, "hi", 2, 1, OptionalInt.empty(), ApiKind.CHAT);

    assertThat(gateway(handler.decide(head(Map.of(), null), alias))).isEqualTo("10.0.0.1:8443");
    assertThat(gateway(handler.decide(head(Map.of(), null), none))).isEqualTo("10.0.0.1:8443");
  }

  @Test
  void theModelListingIsEveryModelASummaryListsAndAnUnknownOneIs404() {
    assertThat(handler.modelsJson()).contains("\"id\":\"llama\"");
    assertThat(handler.modelJson("llama")).contains("\"object\":\"model\"");
    assertThatThrownBy(() -> handler.modelJson("gpt-9"))
        .isInstanceOfSatisfying(
            RequestRejectedException.class, e -> assertThat(e.error().httpStatus()).isEqualTo(404));
  }

  private static int freePort() throws java.io.IOException {
    try (java.net.ServerSocket s =
        new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  @Test
  void twoFleetReplicasSharingTheirBudgetsAdmitAboutOneBudgetInAll() throws Exception {
    int[] ports = {freePort(), freePort()};
    List<String> members = List.of("127.0.0.1:" + ports[0], "127.0.0.1:" + ports[1]);
    FleetConfig budgeted =
        FleetConfig.parse(
            """
            regions: [us, eu]
            summaries: {certChain: f.crt, privateKey: f.key, caFile: ca.pem}
            budgets: [{fairnessId: acme, requestsPerMinute: 20}]
            clusters:
              - {name: spot, gateway: "10.0.0.1:8443", summary: "s:1", tier: spot,
                 pricePerGpuHour: 1, rttMillis: {us: 10, eu: 2000}}
              - {name: od, gateway: "10.0.0.2:8443", summary: "o:1", tier: on-demand,
                 pricePerGpuHour: 4, rttMillis: {us: 50, eu: 10}}
            """);
    List<FleetHandler> handlers = new ArrayList<>();
    List<Replicator> replicators = new ArrayList<>();
    try {
      for (int i = 0; i < 2; i++) {
        FleetHandler h =
            new FleetHandler(
                budgeted,
                clusters,
                () -> 0.5,
                now::get, // the summaries' clock; it stands still, so budgets do not refill
                new FleetMetrics(new SimpleMeterRegistry(), clusters, now::get));
        ReplicationSection section =
            new ReplicationSection(
                true,
                "fleet-test-" + ports[0],
                new ReplicationSection.Discovery(null, members),
                "127.0.0.1",
                ports[i],
                5,
                null,
                null,
                60_000,
                5_000,
                1_000,
                1_000,
                2,
                null);
        handlers.add(h);
        replicators.add(
            Replicator.forBudgets(section, "fleet-" + i, System::nanoTime, h.budgets()).start());
      }
      Await.until(
          "both replicas count each other's budget use",
          Duration.ofSeconds(60),
          () -> replicators.stream().allMatch(Replicator::budgetsShared));

      Map<String, String> acme = Map.of("x-gateway-inference-fairness-id", "acme");
      int admitted = 0;
      for (int round = 0; round < 10; round++) {
        for (FleetHandler h : handlers) {
          for (int k = 0; k < 2; k++) {
            if (h.decide(head(acme, null), body("hello")) instanceof Verdict.Forward) {
              admitted++;
            }
          }
        }
        long total = admitted;
        Await.until(
            "both see " + total + " requests of acme",
            Duration.ofSeconds(60),
            () ->
                handlers.stream()
                    .allMatch(
                        h ->
                            h.budgets().remainingRequests("acme", "llama")
                                == Math.max(0, 20 - total)));
      }

      // alone each replica would admit its own 20 (40 in all); shared, one budget, plus at most
      // what the other admitted in the round before it saw this one's
      assertThat(admitted).isBetween(20, 22);
    } finally {
      replicators.forEach(Replicator::close);
    }
  }

  @Test
  void aTenantsBudgetHoldsAcrossClustersSettlesFromUsageAndIsGivenBackWhenNothingAnswered() {
    FleetConfig budgeted =
        FleetConfig.parse(
            """
            regions: [us, eu]
            sloTtftMillis: 1000
            summaries: {certChain: f.crt, privateKey: f.key, caFile: ca.pem}
            budgets: [{fairnessId: acme, requestsPerMinute: 3, tokensPerMinute: 1000}]
            clusters:
              - {name: spot, gateway: "10.0.0.1:8443", summary: "s:1", tier: spot,
                 pricePerGpuHour: 1, rttMillis: {us: 10, eu: 2000}}
              - {name: od, gateway: "10.0.0.2:8443", summary: "o:1", tier: on-demand,
                 pricePerGpuHour: 4, rttMillis: {us: 50, eu: 10}}
            """);
    FleetHandler limited =
        new FleetHandler(
            budgeted,
            clusters,
            () -> 0.5,
            now::get,
            new FleetMetrics(new SimpleMeterRegistry(), clusters, now::get));
    Map<String, String> acme = Map.of("x-gateway-inference-fairness-id", "acme");
    Map<String, String> acmeFar =
        Map.of("x-gateway-inference-fairness-id", "acme", "x-pointsman-region", "eu");

    // each admitted request reserves 10 prompt + 200 output tokens; two clusters, one budget
    Verdict.Forward first = (Verdict.Forward) limited.decide(head(acme, null), body("hello"));
    Verdict.Forward second = (Verdict.Forward) limited.decide(head(acmeFar, null), body("hello"));
    assertThat(List.of(first.destination(), second.destination()))
        .containsExactly("10.0.0.1:8443", "10.0.0.2:8443");
    // the first one's stream fails before any answer: its request and tokens come back
    first.listener().onEnd(new Completion(0, -1, 2, Usage.NONE, null, Completion.End.ERROR));
    Verdict.Forward third = (Verdict.Forward) limited.decide(head(acme, null), body("hello"));
    third.listener().onResponseHeaders(200, null);
    third
        .listener()
        .onEnd(new Completion(200, 1, 2, new Usage(10, 5, 0), null, Completion.End.COMPLETED));
    assertThat(limited.decide(head(acmeFar, null), body("hello")))
        .isInstanceOf(Verdict.Forward.class);

    Verdict refused = limited.decide(head(acme, null), body("hello"));
    assertThat(refused).isInstanceOf(Verdict.Reject.class);
    Verdict.Reject r = (Verdict.Reject) refused;
    assertThat(r.error().httpStatus()).isEqualTo(429);
    assertThat(r.error().code()).isEqualTo("budget_exceeded");
    assertThat(r.retryAfterSeconds()).isPositive();
    assertThat(r.headers())
        .containsEntry("x-ratelimit-limit-requests", "3")
        .containsEntry("x-ratelimit-remaining-requests", "0")
        .containsEntry("x-ratelimit-limit-tokens", "1000")
        // 1000 - 210 (second, still held) - 15 (third, settled from usage) - 210 (fourth)
        .containsEntry("x-ratelimit-remaining-tokens", "565");
    // another tenant, and a request without one, are not limited by acme's budget
    assertThat(
            limited.decide(
                head(Map.of("x-gateway-inference-fairness-id", "other"), null), body("hello")))
        .isInstanceOf(Verdict.Forward.class);
    assertThat(limited.decide(head(Map.of(), null), body("hello")))
        .isInstanceOf(Verdict.Forward.class);
  }
}
