package dev.pointsman.sim.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pointsman.sim.engine.GpuProfiles;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The simulator's metrics pages against real engines' pages (test resources {@code
 * engine-captures/}, see its {@code sources.md}): the same family names, types and label keys.
 * Every expectation comes from a capture; nothing here reads the simulator's constants.
 */
class EngineCapturesTest {
  static final String MODEL = OpenAiApiTest.MODEL;
  static Fleet fleet;

  @BeforeAll
  static void start() throws Exception {
    PodConfig base = PodConfig.of("p", "A100-80");
    List<PodConfig> pods =
        List.of(
            withName(base, "vllm").withAdapters(List.of("sql-lora")),
            withName(base, "sglang").withEngine("sglang"),
            withName(base, "trtllm").withEngine("trtllm"),
            withName(base, "trtllm-1.1")
                .withEngine("trtllm", new EngineOptions(null, null, null, null, "1.1")),
            withName(base, "triton").withEngine("triton-tensorrt-llm"));
    fleet = Fleet.start(new FleetConfig(pods, 1L, null), GpuProfiles.builtIn());
    for (int i = 0; i < 4; i++) {
      http(i).post("/v1/chat/completions", OpenAiApiTest.chat(MODEL, "hi", 2, false));
    }
  }

  @AfterAll
  static void stop() {
    fleet.close();
  }

  static PodConfig withName(PodConfig p, String name) {
    return new PodConfig(
        name,
        p.gpu(),
        p.model(),
        p.host(),
        p.port(),
        p.maxLoras(),
        p.maxCpuLoras(),
        p.adapters(),
        p.engine(),
        p.faults(),
        p.engineOptions());
  }

  static Http http(int pod) {
    return new Http(fleet.urls().get(pod));
  }

  static Exposition page(int pod, String path) throws Exception {
    return Exposition.parse(http(pod).get(path).body());
  }

  /** Every family of {@code capture} is in {@code sim} with its type and exactly its label keys. */
  static void sameFamilies(Exposition capture, Exposition sim) {
    assertThat(capture.families).isNotEmpty();
    capture.families.forEach(
        (name, f) -> {
          assertThat(sim.families).as("family " + name).containsKey(name);
          if (!f.type().isEmpty()) {
            assertThat(sim.family(name).type()).as("type of " + name).isEqualTo(f.type());
          }
          assertThat(sim.family(name).labelKeys())
              .as("label keys of " + name)
              .isEqualTo(f.labelKeys());
        });
  }

  @Test
  void vllmWritesTheFamiliesOfACurrentV1Page() throws Exception {
    Exposition capture = Exposition.resource("vllm-v1-2026-04-rh-workshop-head40.prom");
    // the capture ends with the HELP line of vllm:request_success_total, which has no samples
    sameFamilies(capture, page(0, "/metrics"));
  }

  @Test
  void vllmCacheConfigAndLoraInfoHaveTheRealLabelKeys() throws Exception {
    Exposition sim = page(0, "/metrics");
    sameFamilies(Exposition.resource("vllm-0.11.0-cache-config-info-line.prom"), sim);
    sameFamilies(Exposition.resource("vllm-0.29.0-lora-requests-info-line.prom"), sim);
  }

  @Test
  void sglangWritesTheCapturedFamiliesWithTheirLabelKeysAndNoCacheConfigInfo() throws Exception {
    Exposition capture = Exposition.resource("sglang-0.4-docs-production-metrics.prom");
    Exposition sim = page(1, "/metrics");
    // the families the picker reads, and the token and latency families the simulator models
    for (String name :
        List.of(
            "sglang:num_queue_reqs",
            "sglang:num_running_reqs",
            "sglang:token_usage",
            "sglang:cache_hit_rate",
            "sglang:num_used_tokens",
            "sglang:prompt_tokens",
            "sglang:generation_tokens",
            "sglang:time_to_first_token_seconds",
            "sglang:e2e_request_latency_seconds")) {
      Exposition.Family real = capture.family(name);
      assertThat(real).as("capture has " + name).isNotNull();
      assertThat(sim.families).as("simulator has " + name).containsKey(name);
      assertThat(sim.family(name).type()).as("type of " + name).isEqualTo(real.type());
      // current SGLang adds engine_type, tp_rank and pp_rank to the scheduler series
      assertThat(sim.family(name).labelKeys()).as(name).containsAll(real.labelKeys());
    }
    assertThat(capture.families).doesNotContainKey("sglang:cache_config_info");
    assertThat(sim.families).doesNotContainKey("sglang:cache_config_info");
  }

  @Test
  void trtllmServeAnswersJsonAtMetricsAndPrometheusTextElsewhere() throws Exception {
    Exposition capture =
        Exposition.resource("trtllm-serve-aibrix2004-prometheus-metrics-excerpt.prom");
    sameFamilies(capture, page(3, "/prometheus/metrics"));
    Exposition current = page(2, "/prometheus/metrics");
    capture.families.forEach(
        (name, f) -> {
          Exposition.Family sim = current.family("trtllm_" + name);
          assertThat(sim).as("trtllm_" + name).isNotNull();
          assertThat(sim.type()).isEqualTo(f.type());
          assertThat(sim.labelKeys()).isEqualTo(f.labelKeys());
        });

    // the docs' example /metrics entry: the simulator's entry has every key it shows
    Set<String> keys = new TreeSet<>();
    Matcher m =
        Pattern.compile("(?m)^        \"(\\w+)\":")
            .matcher(Exposition.text("trtllm-serve-docs-metrics-endpoint-json.txt"));
    while (m.find()) {
      keys.add(m.group(1));
    }
    assertThat(keys).contains("kvCacheStats", "iter");
    JsonNode first = Http.json(http(2).get("/metrics").body());
    assertThat(first.isArray()).isTrue();
    assertThat(first).hasSize(1);
    assertThat(iterator(first.get(0).fieldNames())).containsAll(keys);
    // no engine step since: an empty array, as the captured idle server answered
    String idle = Exposition.text("trtllm-serve-aibrix2004-metrics-json.txt").strip();
    assertThat(http(2).get("/metrics").body()).isEqualTo(idle);
  }

  @Test
  void tritonWritesTheBackendsFamiliesAndKinds() throws Exception {
    Exposition capture = Exposition.resource("triton-trtllm-backend-readme-metrics.prom");
    Exposition sim = page(4, "/metrics");
    sameFamilies(capture, sim);
    capture.families.forEach(
        (name, f) ->
            assertThat(kinds(sim.family(name))).as("kinds of " + name).isEqualTo(kinds(f)));
  }

  /** The values of every label but model and version: the kinds a Triton family reports. */
  static Set<String> kinds(Exposition.Family f) {
    Set<String> kinds = new TreeSet<>();
    f.series()
        .forEach(
            l ->
                l.forEach(
                    (k, v) -> {
                      if (!k.equals("model") && !k.equals("version")) {
                        kinds.add(k + "=" + v);
                      }
                    }));
    return kinds;
  }

  static List<String> iterator(java.util.Iterator<String> it) {
    List<String> l = new java.util.ArrayList<>();
    it.forEachRemaining(l::add);
    return l;
  }
}
