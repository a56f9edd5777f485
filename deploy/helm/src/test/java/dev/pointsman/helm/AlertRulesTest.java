package dev.pointsman.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.sun.net.httpserver.HttpServer;
import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.extproc.testing.Replies;
import dev.pointsman.fleet.app.FleetApp;
import dev.pointsman.fleet.config.FleetConfig;
import dev.pointsman.fleet.telemetry.FleetMetrics;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.picker.envoy.EnvoyConfigRules;
import dev.pointsman.picker.telemetry.KvEventsMetrics;
import dev.pointsman.picker.testing.PickerChannels;
import dev.pointsman.runtime.Metrics;
import dev.pointsman.testing.Await;
import dev.pointsman.testing.TestCa;
import io.envoyproxy.envoy.config.bootstrap.v3.Bootstrap;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chart's PrometheusRule: rendered only when asked, scoped to its own picker, evaluated by
 * Prometheus's own rule engine ({@code promtool test rules}) on series shaped as a running picker
 * exposes them.
 */
class AlertRulesTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final String TESTS = "/alerts/pointsman-alerts-test.yaml";

  /** Metric names in PromQL: an identifier followed by a selector's brace. */
  private static final Pattern METRIC = Pattern.compile("([a-z_][a-z0-9_]*)\\{");

  /** Labels a Prometheus scrape adds to a target's series; the picker does not expose them. */
  private static final Set<String> TARGET_LABELS = Set.of("job", "namespace", "instance");

  @TempDir Path dir;

  private static GenericKubernetesResource rule(Rendered rendered) {
    List<HasMetadata> rules = rendered.ofKind("monitoring.coreos.com/v1", "PrometheusRule");
    assertThat(rules).hasSize(1);
    return (GenericKubernetesResource) rules.get(0);
  }

  private static JsonNode groups(GenericKubernetesResource rule) {
    return YAML.valueToTree(rule.getAdditionalProperties().get("spec")).get("groups");
  }

  private static List<JsonNode> rules(GenericKubernetesResource rule) {
    List<JsonNode> out = new ArrayList<>();
    groups(rule).forEach(g -> g.get("rules").forEach(out::add));
    return out;
  }

  /** The chart with the rules and ServiceMonitors on, fleet tier included. */
  private static Rendered enabled() {
    return Scenarios.FLEET.render();
  }

  @Test
  void isNotRenderedUnlessEnabled() {
    assertThat(Chart.defaults().ofKind("monitoring.coreos.com/v1", "PrometheusRule")).isEmpty();
  }

  @Test
  void everyRuleReadsOnlyThisReleasesPickerEnvoyOrFleet() {
    JsonNode groups = groups(rule(enabled()));

    Map<String, String> selectors =
        Map.of(
            "pointsman-picker", "job=\"pointsman-picker\", namespace=\"pointsman\"",
            "pointsman-envoy", "job=~\"(.+/)?pointsman-envoy\", namespace=\"pointsman\"",
            "pointsman-fleet", "job=\"pointsman-fleet\", namespace=\"pointsman\"");
    assertThat(groups).hasSize(3);
    assertThat(groups.get(0).get("name").asText()).isEqualTo("pointsman-picker");
    assertThat(groups.get(0).get("rules")).hasSize(15);
    assertThat(groups.get(1).get("name").asText()).isEqualTo("pointsman-envoy");
    assertThat(groups.get(1).get("rules")).hasSize(4);
    assertThat(groups.get(2).get("name").asText()).isEqualTo("pointsman-fleet");
    assertThat(groups.get(2).get("rules")).hasSize(5);
    for (JsonNode g : groups) {
      String selector = selectors.get(g.get("name").asText());
      for (JsonNode r : g.get("rules")) {
        String expr = r.get("expr").asText();
        Matcher m = METRIC.matcher(expr);
        int found = 0;
        while (m.find()) {
          found++;
          assertThat(expr.substring(m.end()))
              .as("%s: %s", r.get("alert").asText(), expr)
              .startsWith(selector);
        }
        assertThat(found).as(r.get("alert").asText()).isPositive();
        assertThat(r.at("/labels/severity").asText()).isIn("critical", "warning", "info");
        assertThat(r.at("/annotations/summary").asText()).isNotBlank();
        assertThat(r.at("/annotations/description").asText()).isNotBlank();
      }
    }
    // without the fleet tier or Envoy, their groups are left out
    assertThat(
            groups(
                rule(
                    Chart.render(
                        "envoy: {enabled: false}\nmetrics: {prometheusRule: {enabled: true}}"))))
        .extracting(g -> g.get("name").asText())
        .containsExactly("pointsman-picker");
  }

  /**
   * Envoy's series carry the names its config gives them: the HTTPS listener's connection manager's
   * stat prefix as a label, the ext_proc filter's own prefix in the name ({@code
   * http.<prefix>.ext_proc.<filter prefix>.<stat>}). No Envoy runs here, so the rules are held to
   * the rendered config instead.
   */
  @Test
  void theEnvoyRulesReadTheStatsTheRenderedEnvoyConfigNames() {
    Rendered r = enabled();
    Bootstrap bootstrap =
        EnvoyConfigRules.parse(
            r.get(ConfigMap.class, "pointsman-envoy").getData().get("envoy.yaml"));
    List<Listener> gateways = EnvoyConfigRules.gatewayListeners(bootstrap);
    assertThat(gateways).hasSize(1);
    var hcm = EnvoyConfigRules.connectionManagers(gateways.get(0)).get(0);
    String listenerLabel = "envoy_http_conn_manager_prefix=\"" + hcm.getStatPrefix() + "\"";
    String extProcPrefix =
        "envoy_http_ext_proc_" + EnvoyConfigRules.extProc(hcm).getStatPrefix() + "_";

    JsonNode envoyGroup = groups(rule(r)).get(1);
    assertThat(envoyGroup.get("name").asText()).isEqualTo("pointsman-envoy");
    int extProcReads = 0;
    for (JsonNode rule : envoyGroup.get("rules")) {
      String expr = rule.get("expr").asText();
      Matcher m = METRIC.matcher(expr);
      while (m.find()) {
        String name = m.group(1);
        String selector = expr.substring(m.end(), expr.indexOf('}', m.end()));
        if (name.startsWith("envoy_http_")) {
          assertThat(selector)
              .as("%s in %s", name, rule.get("alert").asText())
              .contains(listenerLabel);
        }
        if (name.contains("ext_proc")) {
          extProcReads++;
          assertThat(name).as(rule.get("alert").asText()).startsWith(extProcPrefix);
        }
      }
    }
    assertThat(extProcReads).isEqualTo(3);
  }

  /**
   * The Prometheus Operator names a ServiceMonitor's series' job after the Service whose port it
   * scrapes: the rules' default selectors must name those Services.
   */
  @Test
  void theDefaultSelectorsNameTheServicesTheServiceMonitorsScrape() {
    Rendered r = Scenarios.FLEET.render();
    JsonNode groups = groups(rule(r));
    Map<String, String> jobs = new HashMap<>();
    for (HasMetadata sm : r.ofKind("monitoring.coreos.com/v1", "ServiceMonitor")) {
      JsonNode spec =
          YAML.valueToTree(((GenericKubernetesResource) sm).getAdditionalProperties().get("spec"));
      Map<String, String> selector =
          YAML.convertValue(
              spec.at("/selector/matchLabels"),
              new com.fasterxml.jackson.core.type.TypeReference<Map<String, String>>() {});
      String port = spec.at("/endpoints/0/port").asText();
      List<String> scraped =
          r.all(io.fabric8.kubernetes.api.model.Service.class).stream()
              .filter(
                  svc -> svc.getMetadata().getLabels().entrySet().containsAll(selector.entrySet()))
              .filter(
                  svc -> svc.getSpec().getPorts().stream().anyMatch(p -> p.getName().equals(port)))
              .map(svc -> svc.getMetadata().getName())
              .toList();
      assertThat(scraped)
          .as("Services ServiceMonitor %s scrapes", sm.getMetadata().getName())
          .hasSize(1);
      jobs.put(sm.getMetadata().getName(), scraped.get(0));
    }
    assertThat(jobs).containsOnlyKeys("pointsman-picker", "pointsman-fleet");
    // a PodMonitor's job is "<namespace>/<PodMonitor>" by the operator's default
    assertThat(r.ofKind("monitoring.coreos.com/v1", "PodMonitor"))
        .extracting(pm -> pm.getMetadata().getName())
        .containsExactly("pointsman-envoy");
    Pattern envoyJob = Pattern.compile("(.+/)?pointsman-envoy");
    assertThat(envoyJob.matcher("pointsman/pointsman-envoy").matches()).isTrue();
    assertThat(envoyJob.matcher("pointsman/pointsman-fleet-envoy").matches()).isFalse();
    for (JsonNode g : groups) {
      String name = g.get("name").asText();
      String selector =
          name.equals("pointsman-envoy")
              ? "job=~\"" + envoyJob.pattern() + "\", namespace=\"pointsman\""
              : "job=\"" + jobs.get(name) + "\", namespace=\"pointsman\"";
      g.get("rules").forEach(rule -> assertThat(rule.get("expr").asText()).contains(selector));
    }
  }

  @Test
  void takesLabelsThresholdsASelectorAndAlertsToLeaveOut() {
    GenericKubernetesResource rule =
        rule(
            Chart.render(
                """
                envoy: {enabled: false}
                metrics:
                  prometheusRule:
                    enabled: true
                    labels: {release: kube-prometheus-stack}
                    ruleLabels: {team: ml-platform}
                    selector: 'service="pointsman-picker"'
                    disabled: [PointsmanReplicaCold, PointsmanEndpointSignalMissing]
                    runbookUrl: https://runbooks.example.com/pointsman
                    ttftP99Seconds: 1.5
                    heapLiveRatio: 0.9
                """));
    List<JsonNode> rules = rules(rule);

    assertThat(rule.getMetadata().getLabels()).containsEntry("release", "kube-prometheus-stack");
    assertThat(rules)
        .hasSize(13)
        .noneMatch(r -> r.get("alert").asText().equals("PointsmanReplicaCold"))
        .allMatch(r -> r.at("/labels/team").asText().equals("ml-platform"))
        .allMatch(r -> r.get("expr").asText().contains("{service=\"pointsman-picker\""))
        .noneMatch(r -> r.get("expr").asText().contains("job="));
    JsonNode ttft =
        rules.stream()
            .filter(r -> r.get("alert").asText().equals("PointsmanTtftHigh"))
            .findFirst()
            .orElseThrow();
    assertThat(ttft.get("expr").asText()).endsWith(") > 1.5");
    assertThat(ttft.at("/annotations/runbook_url").asText())
        .isEqualTo("https://runbooks.example.com/pointsman#pointsmanttfthigh");
    assertThat(rules)
        .filteredOn(r -> r.get("alert").asText().equals("PointsmanPickerHeapFull"))
        .singleElement()
        .satisfies(r -> assertThat(r.get("expr").asText()).endsWith(") > 0.9"));
  }

  @Test
  void theSchemaRefusesAnAlertNameItDoesNotKnow() {
    assertThat(
            org.assertj.core.api.Assertions.catchThrowable(
                () ->
                    Chart.template(
                        Chart.RELEASE,
                        Chart.NAMESPACE,
                        "metrics: {prometheusRule: {enabled: true, disabled: [PointsmanTypo]}}")))
        .hasMessageContaining("/metrics/prometheusRule/disabled/0");
  }

  /**
   * Prometheus's rule engine evaluates the rendered rules over the test file's series: each alert
   * fires when its condition has held for its duration, with its labels and annotations, and not
   * otherwise. Needs promtool (Debian's prometheus package; {@code .ci/run} installs it).
   */
  @Test
  void prometheusFiresEachAlertOnlyWhenItsConditionHolds() throws Exception {
    assumeThat(promtool())
        .as(
            "promtool is not on PATH: the alert rules are rendered and checked here, but not"
                + " evaluated (apt-get install prometheus provides it)")
        .isNotNull();
    Files.writeString(
        dir.resolve("rules.yaml"),
        YAML.writeValueAsString(Map.of("groups", groups(rule(enabled())))));
    try (InputStream in = getClass().getResourceAsStream(TESTS)) {
      Files.write(dir.resolve("tests.yaml"), in.readAllBytes());
    }

    assertThat(run(promtool(), "check", "rules", "rules.yaml")).contains("SUCCESS: 24 rules found");
    String out = run(promtool(), "test", "rules", "tests.yaml");
    assertThat(out).contains("SUCCESS");
    // every alert of the chart is tested
    String tests = Files.readString(dir.resolve("tests.yaml"));
    for (JsonNode r : rules(rule(enabled()))) {
      assertThat(tests).contains("alertname: " + r.get("alert").asText());
    }
  }

  /**
   * The series the tests feed Prometheus are the ones a running picker exposes: every metric the
   * rules read, with the same label names, taken from a real picker's {@code /metrics} over a real
   * socket after it has routed a request, refused one, failed scrapes of one endpoint and joined
   * its replication cluster (and from the KV-event meters and a picker with a model-server CA file
   * for the two families those need).
   */
  @Test
  void theTestsSeriesAreShapedAsARunningPickerExposesThem() throws Exception {
    Map<String, Set<Set<String>>> exposed = new HashMap<>();
    addExposition(exposed, livePickerExposition());
    try (Metrics kv = Metrics.create("pointsman-picker")) {
      new KvEventsMetrics(kv.registry()).decodeError("chat", "msgpack");
      addExposition(exposed, kv.registry().scrape());
    }
    addExposition(exposed, liveFleetExposition());
    try (Metrics fleet = Metrics.create("pointsman-fleet")) {
      FleetMetrics meters = new FleetMetrics(fleet.registry(), List.of(), System::nanoTime);
      meters.routed("us-west", "cheapest-within-slo");
      meters.upstreamError("us-west");
      addExposition(exposed, fleet.registry().scrape());
    }

    JsonNode tests;
    try (InputStream in = getClass().getResourceAsStream(TESTS)) {
      tests = YAML.readTree(in);
    }
    Set<String> fed = new TreeSet<>();
    for (JsonNode test : tests.get("tests")) {
      for (JsonNode s : test.get("input_series")) {
        String series = s.get("series").asText();
        String name = series.substring(0, series.indexOf('{'));
        fed.add(name);
        if (name.equals("up") || name.startsWith("envoy_")) {
          // Prometheus's own; Envoy's, as its documented stats name them (no Envoy runs here)
          continue;
        }
        Set<String> labels = labelNames(series.substring(series.indexOf('{') + 1));
        labels.removeAll(TARGET_LABELS);
        assertThat(exposed).as("the picker exposes %s", name).containsKey(name);
        assertThat(exposed.get(name)).as("label names of %s", series).contains(labels);
      }
    }
    // and every metric a rule reads is fed to some test
    for (JsonNode r : rules(rule(enabled()))) {
      Matcher m = METRIC.matcher(r.get("expr").asText());
      while (m.find()) {
        assertThat(fed).as(r.get("alert").asText()).contains(m.group(1));
      }
    }
  }

  private String livePickerExposition() throws Exception {
    HttpServer good = pod(200, "llama");
    HttpServer failing = pod(503, "llama");
    int replication = freePort();
    Path ca = dir.resolve("model-servers-ca.pem");
    String yaml =
        """
        grpc: {port: 0, host: 127.0.0.1}
        admin: {port: 0, host: 127.0.0.1}
        scrape: {intervalMillis: 20, timeoutMillis: 200, unavailableAfterMillis: 300}
        replication:
          enabled: true
          bindAddress: 127.0.0.1
          bindPort: %d
          discovery: {members: ["127.0.0.1:%d"]}
        pools:
          - name: chat
            engine: vllm
            models: [llama]
            endpoints:
              - {address: "127.0.0.1:%d"}
              - {address: "127.0.0.1:%d"}
        """
            .formatted(
                replication,
                replication,
                good.getAddress().getPort(),
                failing.getAddress().getPort());
    PickerApp app = new PickerApp(PickerConfig.parse(yaml), null).start();
    ManagedChannel channel = null;
    try {
      Files.writeString(ca, app.certificatePem().orElseThrow());
      channel = PickerChannels.trusting(app);
      Await.until("the picker is ready", app::ready);

      EnvoyReplay routed = EnvoyReplay.open(channel);
      routed.requestHeaders("POST", "/v1/chat/completions", false);
      routed.requestBody(Replies.chat("llama", "hello", false), true);
      assertThat(
              Replies.setHeaders(routed.next().getRequestHeaders().getResponse())
                  .get("x-gateway-destination-endpoint"))
          .isEqualTo("127.0.0.1:" + good.getAddress().getPort());
      routed.next();
      routed.responseHeaders(200, false, null);
      routed.next();
      routed.responseBody("{\"choices\":[],\"usage\":{\"prompt_tokens\":5}}", true);
      routed.next();
      routed.halfClose();
      assertThat(routed.awaitEnd()).isTrue();

      refused(channel, "no-such-model");

      Await.until(
          "a refusal and a failed scrape are counted",
          () -> {
            String text = metrics(app);
            return text.contains("inference_objective_request_error_total{")
                && text.contains("result=\"error\"");
          });
      return metrics(app) + "\n" + caFilePickerExposition(ca);
    } finally {
      if (channel != null) {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
      app.close();
      good.stop(0);
      failing.stop(0);
    }
  }

  /**
   * A real fleet tier whose one cluster's summary cannot be read and whose pool imports' API server
   * is unreachable: its cluster gauges, its import failures, and the refusal of a request no
   * cluster can take, from its {@code /metrics}.
   */
  private String liveFleetExposition() throws Exception {
    int closed = freePort();
    Map<String, String> saved = new HashMap<>();
    Map<String, String> props =
        Map.of(
            "kubernetes.master", "http://127.0.0.1:" + closed,
            "kubernetes.auth.tryKubeConfig", "false",
            "kubernetes.auth.tryServiceAccount", "false",
            "kubernetes.request.retry.backoffLimit", "1");
    props.forEach((k, v) -> saved.put(k, System.setProperty(k, v)));
    TestCa ca = TestCa.create(dir, "alerts-test-ca");
    TestCa.Issued me = ca.client("fleet");
    String yaml =
        """
        grpc: {port: 0, host: 127.0.0.1, tls: plaintext, drainSeconds: 0}
        admin: {port: 0, host: 127.0.0.1}
        regions: [here]
        summaries: {intervalMillis: 50, certChain: "%s", privateKey: "%s", caFile: "%s"}
        poolImports: {enabled: true, namespace: default}
        clusters:
          - {name: us-west, gateway: "127.0.0.1:%d", summary: "127.0.0.1:%d", tier: spot, \
        pricePerGpuHour: 1, rttMillis: {here: 1}}
        """
            .formatted(me.certChain(), me.privateKey(), ca.caFile(), closed, closed);
    FleetApp fleet;
    try {
      fleet = new FleetApp(FleetConfig.parse(yaml)).start();
    } finally {
      saved.forEach(
          (k, v) -> {
            if (v == null) {
              System.clearProperty(k);
            } else {
              System.setProperty(k, v);
            }
          });
    }
    ManagedChannel channel =
        NettyChannelBuilder.forAddress("127.0.0.1", fleet.grpcPort()).usePlaintext().build();
    try {
      refused(channel, "llama");
      Await.until(
          "the refusal and an import failure are counted",
          () -> {
            String text = admin(fleet.adminPort());
            return text.contains("pointsman_fleet_rejections_total{")
                && text.matches(
                    "(?s).*pointsman_fleet_pool_imports_failures_total\\{[^}]*\\} [1-9].*");
          });
      return admin(fleet.adminPort());
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      fleet.close();
    }
  }

  /** Sends a chat request for {@code model} that {@code channel}'s server answers itself. */
  private static void refused(ManagedChannel channel, String model) {
    EnvoyReplay refused = EnvoyReplay.open(channel);
    refused.requestHeaders("POST", "/v1/chat/completions", false);
    refused.requestBody(Replies.chat(model, "hello", false), true);
    refused.next();
    refused.cancel();
  }

  /** A picker that scrapes its model servers over HTTPS with a CA file: its reload counters. */
  private String caFilePickerExposition(Path ca) throws Exception {
    String yaml =
        """
        grpc: {port: 0, host: 127.0.0.1}
        admin: {port: 0, host: 127.0.0.1}
        scrape: {tls: {enabled: true, caFile: "%s"}}
        pools:
          - name: chat
            engine: vllm
            models: [llama]
            endpoints:
              - {address: "127.0.0.1:1"}
        """
            .formatted(ca);
    try (PickerApp app = new PickerApp(PickerConfig.parse(yaml), null).start()) {
      return metrics(app);
    }
  }

  private static String metrics(PickerApp app) {
    return admin(app.adminPort());
  }

  /** GET /metrics from an admin listener. */
  private static String admin(int port) {
    try {
      HttpResponse<String> r =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      return r.body();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** A model server whose /metrics answers with this status (vLLM's series, no prefix cache). */
  private static HttpServer pod(int status, String model) throws IOException {
    HttpServer pod = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    pod.createContext(
        "/metrics",
        ex -> {
          byte[] body =
              ("vllm:num_requests_waiting{model_name=\"%s\"} 0\n"
                      + "vllm:num_requests_running{model_name=\"%s\"} 1\n"
                      + "vllm:kv_cache_usage_perc{model_name=\"%s\"} 0.2\n")
                  .formatted(model, model, model)
                  .getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(status, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    pod.start();
    return pod;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /** Family name to the label-name sets of its series, from Prometheus text exposition. */
  private static void addExposition(Map<String, Set<Set<String>>> into, String exposition) {
    for (String line : exposition.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int brace = line.indexOf('{');
      int space = line.indexOf(' ');
      boolean labelled = brace >= 0 && brace < space;
      String name = line.substring(0, labelled ? brace : space);
      Set<String> labels =
          labelled ? labelNames(line.substring(brace + 1, line.lastIndexOf('}') + 1)) : Set.of();
      into.computeIfAbsent(name, k -> new HashSet<>()).add(labels);
    }
  }

  /** The label names of a selector or series body after its opening brace. */
  private static Set<String> labelNames(String body) {
    Set<String> names = new HashSet<>();
    Matcher m =
        Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*=\\s*\"(?:[^\"\\\\]|\\\\.)*\"").matcher(body);
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  private static String promtool() {
    for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      Path p = Path.of(d, "promtool");
      if (Files.isExecutable(p)) {
        return p.toString();
      }
    }
    return null;
  }

  private String run(String... command) throws Exception {
    Process p =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("%s\n%s", String.join(" ", command), out).isZero();
    return out;
  }
}
