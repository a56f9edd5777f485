package dev.pointsman.picker.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.extproc.BodyMode;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.extproc.PickerOptions;
import dev.pointsman.picker.kvevents.KvEventsSettings;
import dev.pointsman.picker.scrape.MetricsLocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PickerConfigTest {
  private static final String POOL =
      "pools: [{name: a, models: [m], endpoints: [{address: '10.0.0.1:8000'}]}]\n";

  @Test
  void everySectionDefaults() {
    PickerConfig c = PickerConfig.parse(POOL);
    assertThat(c.grpc().port()).isEqualTo(9002);
    assertThat(c.grpc().tls()).isEqualTo("self-signed");
    assertThat(c.admin().port()).isEqualTo(9090);
    assertThat(c.extProcSettings().requestBodyMode()).isEqualTo(BodyMode.FULL_DUPLEX_STREAMED);
    assertThat(c.scrape().intervalMillis()).isEqualTo(50);
    assertThat(c.modelsConfig().models())
        .singleElement()
        .satisfies(m -> assertThat(m.name()).isEqualTo("m"));
  }

  @Test
  void theScrapersCpuBudgetAndLongestStretchAreRead() {
    PickerConfig c =
        PickerConfig.parse(POOL + "scrape: {cpuBudgetCores: 2, maxStretchMillis: 150}\n");
    assertThat(c.scrape().scraper().cpuBudgetCores()).isEqualTo(2.0);
    assertThat(c.scrape().scraper().maxStretch()).isEqualTo(java.time.Duration.ofMillis(150));
    PickerConfig slow = PickerConfig.parse(POOL + "scrape: {intervalMillis: 400}\n");
    assertThat(slow.scrape().scraper().maxStretch()) // never below the interval
        .isEqualTo(java.time.Duration.ofMillis(400));
    assertThat(PickerConfig.parse(POOL).scrape().scraper().cpuBudgetCores()).isEqualTo(0.5);
  }

  @Test
  void thePrefixIndexBoundFollowsTheHeapUnlessSet() {
    PrefixIndexSection byHeap = PickerConfig.parse(POOL).prefixIndex();
    long gib = 1L << 30;
    assertThat(byHeap.maxBlocks(gib)).as("40%% of 1 GiB at 120 bytes a block").isEqualTo(3_579_139);
    assertThat(byHeap.maxBlocks(4 * gib)).isEqualTo(14_316_557);
    assertThat(byHeap.maxBlocks(1_000)).as("never below the least bound").isEqualTo(1_000);
    assertThat(byHeap.maxEngineBlocks(gib)).as("20%% at 250 bytes").isEqualTo(858_993);
    PrefixIndexSection set =
        PickerConfig.parse(POOL + "prefixIndex: {maxBlocks: 2000000}\n").prefixIndex();
    assertThat(set.maxBlocks(gib)).isEqualTo(2_000_000);
  }

  @Test
  void aPoolsModelSizeLabelsItsEndpointsForTheSpeedPrior() {
    String label = dev.pointsman.picker.scheduling.prior.SpeedPriors.MODEL_PARAMS_LABEL;
    PickerConfig stated =
        PickerConfig.parse(
            "pools: [{name: a, models: [m], modelParams: 70b, endpoints: [{address:"
                + " '10.0.0.1:8000'}, {address: '10.0.0.2:8000', labels: {'"
                + label
                + "': 8b}}]}]\n");
    assertThat(stated.pools().get(0).toEndpoints())
        .extracting(e -> e.label(label))
        .containsExactly("70b", "8b");
    PickerConfig hinted =
        PickerConfig.parse(
            "pools: [{name: a, models: [meta-llama/Llama-3.1-70B-Instruct], endpoints: [{address:"
                + " '10.0.0.1:8000'}]}]\n");
    assertThat(hinted.pools().get(0).toEndpoints().get(0).label(label)).isEqualTo("70.0b");
    assertThat(PickerConfig.parse(POOL).pools().get(0).toEndpoints().get(0).label(label)).isNull();
    assertThatThrownBy(
            () ->
                PickerConfig.parse(
                    "pools: [{name: a, models: [m], modelParams: huge, endpoints: []}]\n"))
        .hasMessageContaining("modelParams: 'huge' (expected a size such as 8b, 70b or 8x7b)");
  }

  @Test
  void kvEventsAreOffByDefaultAndTakeVllmsPortsWhenOn() {
    KvEventsSettings off = PickerConfig.parse(POOL).pools().get(0).kvEvents();
    assertThat(off.enabled()).isFalse();

    KvEventsSettings on =
        PickerConfig.parse(
                "pools: [{name: a, models: [m], kvEvents: {enabled: true, topic: kv},"
                    + " endpoints: [{address: '10.0.0.1:8000'}]}]\n")
            .pools()
            .get(0)
            .kvEvents();
    assertThat(on)
        .isEqualTo(new KvEventsSettings(true, 5557, 5558, "kv", 2000, 65_536, false, null, 0.8));
    assertThatThrownBy(
            () ->
                PickerConfig.parse(
                    "pools: [{name: a, models: [m], kvEvents: {enabled: true, replayPort: 70000},"
                        + " endpoints: []}]\n"))
        .hasMessageContaining("kvEvents.replayPort: 70000 (expected 0..65535)");
    assertThatThrownBy(
            () ->
                PickerConfig.parse(
                    "pools: [{name: a, models: [m], kvEvents: {tokenizer: /no/such/tokenizer.json},"
                        + " endpoints: []}]\n"))
        .hasMessageContaining(
            "kvEvents.tokenizer: '/no/such/tokenizer.json' (expected a readable tokenizer.json"
                + " file)");
  }

  @Test
  void protocolAndShutdownDefaultToOriginalDstNoHooksAndATwelveSecondGrace() {
    PickerConfig c = PickerConfig.parse(POOL);
    assertThat(c.pickerOptions())
        .isEqualTo(new PickerOptions(PickerOptions.DataPlane.ORIGINAL_DST, false));
    assertThat(c.shutdown().grace()).isEqualTo(java.time.Duration.ofSeconds(12));
  }

  @Test
  void protocolAndShutdownAreRead() {
    PickerConfig c =
        PickerConfig.parse(
            POOL
                + "protocol: {dataPlane: override-host, conformanceTestHooks: true}\n"
                + "shutdown: {graceSeconds: 0}\n");
    assertThat(c.pickerOptions())
        .isEqualTo(new PickerOptions(PickerOptions.DataPlane.OVERRIDE_HOST, true));
    assertThat(c.shutdown().grace()).isZero();
  }

  @Test
  void theFileMayListNoPoolsButLocalModeNeedsOne() {
    PickerConfig empty = PickerConfig.parse("{}");
    assertThat(empty.pools()).isEmpty();
    assertThatThrownBy(() -> new PickerApp(empty, null))
        .hasMessageContaining("pools: [] (expected at least one pool in local mode)");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "grpc: {tls: sometimes} | grpc.tls: 'sometimes' (expected self-signed, files or plaintext)",
        "grpc: {port: 70000} | grpc.port: 70000 (expected 0..65535)",
        "extProc: {requestBodyMode: STREAMED} | extProc.requestBodyMode: 'STREAMED'",
        "scrape: {intervalMillis: 0} | scrape.interval",
        "scrape: {maxStretchMillis: 20} | scrape.maxStretchMillis: 20 (expected >= the interval,"
            + " 50)",
        "scrape: {cpuBudgetCores: -0.5} | scrape.cpuBudgetCores: -0.5",
        "pools: [{name: a, endpoints: [{address: nope}]}] | pools[0].endpoints[0].address: 'nope'"
            + " (expected host:port)",
        "pools: [{name: a, engine: tgi}] | pools[0].engine: 'tgi'",
        "pools: [{name: a, metricsPath: metrics}] | pools[0].metricsPath: 'metrics' (expected an"
            + " absolute path such as /metrics)",
        "pools: [{name: a, metricsPort: 0}] | pools[0].metricsPort: 0 (expected 1..65535)",
        "pools: [{name: a, policy: {scorers: [{type: qeue-scorer, weight: 1}]}}] |"
            + " pools[0].policy.scorers[0].type: 'qeue-scorer'",
        "pools: [{name: a}, {name: a}] | pools[1].name: 'a' (already used by another pool)",
        "bogus: 1 | bogus: unknown property",
        "protocol: {dataPlane: sideways} | protocol.dataPlane: 'sideways' (expected original-dst or"
            + " override-host)",
        "shutdown: {graceSeconds: -1} | shutdown.graceSeconds: -1 (expected 0..300)",
        "prefixIndex: {maxBlocks: 999} | prefixIndex.maxBlocks: 999 (expected >= 1000)",
        "prefixIndex: {maxEngineBlocks: 5} | prefixIndex.maxEngineBlocks: 5 (expected >= 1000)",
        "recording: {maxBytes: 0} | recording.maxBytes: 0 (expected >= 1)",
        "recording: {maxFiles: 0} | recording.maxFiles: 0 (expected 1..1000)",
        "recording: {queueCapacity: 0} | recording.queueCapacity: 0 (expected 1..1000000)",
        "recording: {salt: ''} | recording.salt: '' (expected a secret string, or leave it out)",
        "shadow: {destination: sideways} | shadow.destination: 'sideways' (expected none or balancer)",
        "shadow: {destination: balancer} | shadow.balancerHeader: missing (expected the name of the"
            + " request header",
        "shadow: {destination: balancer, balancerHeader: 'x bad'} | shadow.balancerHeader: 'x bad'",
        "shadow: {destination: balancer, balancerHeader: X-Gateway-Destination-Endpoint} |"
            + " shadow.balancerHeader: 'x-gateway-destination-endpoint' (expected a header the"
            + " gateway does not strip",
        "shadow: {balancerHeader: x-lb} | shadow.balancerHeader: 'x-lb' with destination: none",
        "replication: {enabled: true} | replication.discovery: none (expected dnsQuery or members when enabled)",
        "replication: {bindAddress: 0.0.0.0} | replication.bindAddress: '0.0.0.0' (expected the address of one interface",
        "replication: {batchMillis: 0} | replication.batchMillis: 0 (expected 1..10000)",
        "replication: {batchMillis: 100, staleMillis: 200} | replication.staleMillis: 200 (expected 300..600000)",
        "replication: {discovery: {members: [nohost]}} | replication.discovery.members[0]: 'nohost' (expected host:port)",
        "replication: {discovery: {dnsQuery: a.b, members: ['h:1']}} | replication.discovery.members: [h:1] (expected either dnsQuery or members, not both)",
      })
  void errorsNameThePathOfTheBadValue(String yaml, String message) {
    assertThatThrownBy(() -> PickerConfig.parse(yaml))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(message);
  }

  @Test
  void recordingAndShadowAreOffByDefaultAndReadTheirSections() {
    PickerConfig defaults = PickerConfig.parse("grpc: {port: 0}\n");
    assertThat(defaults.recording().enabled()).isFalse();
    assertThat(defaults.shadow().enabled()).isFalse();
    assertThat(defaults.pickerOptions().shadow()).isFalse();

    PickerConfig on =
        PickerConfig.parse(
            "recording: {enabled: true, file: /tmp/t.jsonl, maxBytes: 1000, maxFiles: 2,"
                + " tenantHeader: X-Tenant}\nshadow: {enabled: true}\n");
    assertThat(on.recording().maxBytes()).isEqualTo(1000);
    assertThat(on.recording().maxFiles()).isEqualTo(2);
    assertThat(on.recording().tenantHeader()).isEqualTo("x-tenant");
    assertThat(on.shadow().destination()).isEqualTo("none");
    assertThat(on.pickerOptions().shadow()).isTrue();
    assertThat(on.pickerOptions().balancerHeader()).isNull();

    PickerConfig balancer =
        PickerConfig.parse(
            "shadow: {enabled: true, destination: balancer, balancerHeader: X-LB-Endpoint}\n");
    assertThat(balancer.pickerOptions().shadow()).isTrue();
    assertThat(balancer.pickerOptions().balancerHeader()).isEqualTo("x-lb-endpoint");
    PickerConfig off =
        PickerConfig.parse("shadow: {destination: balancer, balancerHeader: x-lb}\n");
    assertThat(off.pickerOptions().shadow()).isFalse();
    assertThat(off.pickerOptions().balancerHeader()).isNull();
  }

  @Test
  void replicationIsOffByDefaultAndReadsItsSection() {
    assertThat(PickerConfig.parse(POOL).replication().enabled()).isFalse();
    ReplicationSection r =
        PickerConfig.parse(
                POOL
                    + "replication: {enabled: true, discovery: {dnsQuery: peers.ns.svc},"
                    + " bindPort: 7900, expectedMembers: 3}\n")
            .replication();
    assertThat(r.enabled()).isTrue();
    assertThat(r.discovery().dnsQuery()).isEqualTo("peers.ns.svc");
    assertThat(r.bindPort()).isEqualTo(7900);
    assertThat(r.batchMillis()).isEqualTo(5);
    assertThat(r.expectedMembers()).isEqualTo(3);
    assertThat(r.withBindAddress("10.1.2.3").bindAddress()).isEqualTo("10.1.2.3");
    assertThat(r.shareLatencies()).isFalse();
    ReplicationSection sharing =
        PickerConfig.parse(
                POOL
                    + "replication: {enabled: true, discovery: {dnsQuery: peers.ns.svc},"
                    + " shareLatencies: true}\n")
            .replication();
    assertThat(sharing.shareLatencies()).isTrue();
    assertThat(sharing.withBindAddress("10.1.2.3").shareLatencies()).isTrue();
  }

  @Test
  void aPoolMayServeMetricsElsewhereThanItsEngineDoes() {
    PickerConfig c =
        PickerConfig.parse(
            "pools: [{name: t, engine: triton-tensorrt-llm, metricsPort: 9102,"
                + " endpoints: [{address: '10.0.0.1:8000'}]},"
                + " {name: s, engine: trtllm, metricsPath: /custom}, {name: v}]\n");

    assertThat(c.pool("t").metrics()).isEqualTo(new MetricsLocation(null, 9102));
    assertThat(c.pool("s").metrics()).isEqualTo(new MetricsLocation("/custom", 0));
    assertThat(c.pool("v").metrics()).isEqualTo(MetricsLocation.DEFAULT);
    assertThat(c.scrape().path()).isNull(); // each engine's own path unless set
  }

  @Test
  void theGrpcMessageLimitFollowsTheBodyLimit() {
    PickerConfig defaults = PickerConfig.parse(POOL);
    PickerConfig big = PickerConfig.parse(POOL + "extProc: {maxBodyBytes: 33554432}\n");

    assertThat(defaults.grpc().toServerConfig(defaults.extProcSettings()).maxInboundMessageBytes())
        .isEqualTo((16 << 20) + (1 << 20));
    assertThat(big.grpc().toServerConfig(big.extProcSettings()).maxInboundMessageBytes())
        .isEqualTo((32 << 20) + (1 << 20));
  }

  @Test
  void aGrpcMessageLimitBelowABufferedBodyIsAConfigError() {
    String yaml =
        POOL
            + "extProc: {requestBodyMode: BUFFERED, maxBodyBytes: 16777216}\n"
            + "grpc: {maxInboundMessageBytes: 8388608}\n";

    assertThatThrownBy(() -> PickerConfig.parse(yaml))
        .hasMessageContaining(
            "grpc.maxInboundMessageBytes: 8388608 (expected >= extProc.maxBodyBytes + 1048576"
                + " = 17825792");
    assertThat(
            PickerConfig.parse(yaml.replace("BUFFERED", "FULL_DUPLEX_STREAMED"))
                .grpc()
                .maxInboundMessageBytes())
        .as("streamed chunks are small: any limit will do")
        .isEqualTo(8388608);
  }

  @Test
  void routedPathsAreReadAndCheckedWithTheirPath() {
    PickerConfig c =
        PickerConfig.parse(POOL + "extProc: {routedPaths: [/v1/chat/completions, /v1/rerank]}\n");

    assertThat(c.extProcSettings().paths().routed())
        .containsExactly("/v1/chat/completions", "/v1/rerank");
    assertThat(PickerConfig.parse(POOL).extProcSettings().paths().routed())
        .containsExactly(
            "/v1/chat/completions", "/v1/completions", "/v1/embeddings", "/v1/responses");
    assertThatThrownBy(() -> PickerConfig.parse(POOL + "extProc: {routedPaths: [/v1/../admin]}\n"))
        .hasMessageContaining("extProc.routedPaths[0]: '/v1/../admin' (expected a path in normal");
  }
}
