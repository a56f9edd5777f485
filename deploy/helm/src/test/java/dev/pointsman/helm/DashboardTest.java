package dev.pointsman.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The Grafana dashboard ConfigMap: valid JSON whose queries use the picker's real metric names. */
class DashboardTest {

  private static JsonNode dashboard() throws Exception {
    ConfigMap cm = Chart.defaults().get(ConfigMap.class, "pointsman-dashboard");
    assertThat(cm.getMetadata().getLabels()).containsEntry("grafana_dashboard", "1");
    return new ObjectMapper().readTree(cm.getData().get("pointsman.json"));
  }

  private static List<String> expressions(JsonNode dashboard) {
    List<String> out = new ArrayList<>();
    dashboard.findValues("expr").forEach(e -> out.add(e.asText()));
    return out;
  }

  @Test
  void chartsTtftDecisionsScrapeHealthAndPoolLoad() throws Exception {
    List<String> exprs = expressions(dashboard());

    assertThat(exprs)
        .anySatisfy(
            e ->
                assertThat(e)
                    .startsWith("histogram_quantile(0.99")
                    .contains("pointsman_ttft_seconds_bucket")
                    .contains("by (pool, le)"))
        .anySatisfy(e -> assertThat(e).contains("pointsman_decisions_total").contains("result"))
        .anySatisfy(e -> assertThat(e).contains("pointsman_scrape_errors_total"))
        .anySatisfy(e -> assertThat(e).contains("inference_pool_average_queue_size"))
        .anySatisfy(e -> assertThat(e).contains("inference_pool_average_kv_cache_utilization"))
        .anySatisfy(e -> assertThat(e).contains("inference_pool_ready_pods"));
  }

  @Test
  void chartsFlowControlDepthWaitAndRefusals() throws Exception {
    List<String> exprs = expressions(dashboard());

    assertThat(exprs)
        .anySatisfy(
            e ->
                assertThat(e)
                    .contains("inference_extension_flow_control_queue_size")
                    .contains("by (priority)"))
        .anySatisfy(
            e ->
                assertThat(e)
                    .startsWith("histogram_quantile(0.99")
                    .contains(
                        "inference_extension_flow_control_request_queue_duration_seconds_bucket")
                    .contains("by (priority, le)"))
        .anySatisfy(
            e ->
                assertThat(e)
                    .contains("pointsman_flow_control_rejections_total")
                    .contains("reason"))
        .anySatisfy(
            e ->
                assertThat(e)
                    .contains("pointsman_flow_control_budget_remaining_tokens")
                    .contains("fairness_id"))
        .anySatisfy(e -> assertThat(e).contains("pointsman_replication_budgets_shared"))
        .anySatisfy(e -> assertThat(e).contains("pointsman_replication_budgets_local_total"));
  }

  @Test
  void chartsShadowAgreementAndPredictionError() throws Exception {
    List<String> exprs = expressions(dashboard());

    assertThat(exprs)
        .anySatisfy(
            e ->
                assertThat(e)
                    .contains("pointsman_shadow_would_differ_total")
                    .contains("/ sum(rate(pointsman_shadow_served_total"))
        .anySatisfy(
            e ->
                assertThat(e)
                    .startsWith("histogram_quantile(0.90")
                    .contains("pointsman_shadow_ttft_prediction_error_bucket"))
        .anySatisfy(
            e ->
                assertThat(e)
                    .startsWith("histogram_quantile(0.50")
                    .contains("pointsman_shadow_ttft_prediction_error_bucket"))
        .anySatisfy(
            e ->
                assertThat(e)
                    .contains("pointsman_shadow_served_total")
                    .contains("/ sum(rate(pointsman_shadow_decisions_total"));
  }

  @Test
  void comparesTheCanarysTwoRoutesFromEnvoysClusterStatsAndThePickersTtft() throws Exception {
    List<String> exprs = expressions(dashboard());

    // the clusters the chart's Envoy config routes the two shares to
    assertThat(exprs)
        .anySatisfy(
            e ->
                assertThat(e)
                    .startsWith("histogram_quantile(0.99")
                    .contains("envoy_cluster_upstream_rq_time_bucket")
                    .contains("by (envoy_cluster_name, le)")
                    .contains("model-servers|model-servers-h2c|default-models"))
        .anySatisfy(
            e ->
                assertThat(e)
                    .contains("envoy_cluster_upstream_rq_total")
                    .contains("envoy_cluster_name=~\"model-servers|model-servers-h2c\""))
        .anySatisfy(
            e ->
                assertThat(e)
                    .startsWith("histogram_quantile(0.99, sum by (le)")
                    .contains("pointsman_ttft_seconds_bucket"));
  }

  /**
   * Envoy's streams to the picker, charted from the same counters under the same names as the
   * alerts that fire on them (AlertRulesTest holds those names to the rendered Envoy config).
   */
  @Test
  void chartsEnvoysStreamsToThePickerFromTheCountersItsAlertsRead() throws Exception {
    List<String> exprs = expressions(dashboard());
    Pattern extProc = Pattern.compile("envoy_http_ext_proc_\\w+");
    Set<String> charted = new HashSet<>();
    for (String e : exprs) {
      Matcher m = extProc.matcher(e);
      while (m.find()) {
        charted.add(m.group());
        assertThat(e).contains("envoy_http_conn_manager_prefix=\"ingress_https\"");
      }
    }
    assertThat(charted)
        .containsExactlyInAnyOrder(
            "envoy_http_ext_proc_picker_streams_failed",
            "envoy_http_ext_proc_picker_streams_started",
            "envoy_http_ext_proc_picker_failure_mode_allowed");
    String rules =
        Scenarios.FLEET.render().ofKind("monitoring.coreos.com/v1", "PrometheusRule").toString();
    assertThat(charted).allSatisfy(name -> assertThat(rules).contains(name + "{"));
  }

  /** Grafana lays panels out as given: two that share a cell would hide one another. */
  @Test
  void noTwoPanelsOverlap() throws Exception {
    List<JsonNode> boxes = new ArrayList<>();
    dashboard().get("panels").forEach(p -> boxes.add(p));
    for (int i = 0; i < boxes.size(); i++) {
      JsonNode a = boxes.get(i).get("gridPos");
      assertThat(a.get("x").asInt() + a.get("w").asInt())
          .as("panel %s fits the 24 columns", boxes.get(i).get("title"))
          .isLessThanOrEqualTo(24);
      for (int j = i + 1; j < boxes.size(); j++) {
        JsonNode b = boxes.get(j).get("gridPos");
        boolean apart =
            a.get("x").asInt() + a.get("w").asInt() <= b.get("x").asInt()
                || b.get("x").asInt() + b.get("w").asInt() <= a.get("x").asInt()
                || a.get("y").asInt() + a.get("h").asInt() <= b.get("y").asInt()
                || b.get("y").asInt() + b.get("h").asInt() <= a.get("y").asInt();
        assertThat(apart)
            .as("%s and %s", boxes.get(i).get("title"), boxes.get(j).get("title"))
            .isTrue();
      }
    }
  }

  @Test
  void panelIdsAreUniqueAndEveryPanelHasADataSourceVariable() throws Exception {
    JsonNode dash = dashboard();
    Set<Integer> ids = new HashSet<>();

    assertThat(dash.get("uid").asText()).isEqualTo("pointsman-overview");
    for (JsonNode panel : dash.get("panels")) {
      assertThat(ids.add(panel.get("id").asInt())).as("panel id %s", panel.get("id")).isTrue();
      if (!panel.get("type").asText().equals("row")) {
        assertThat(panel.at("/datasource/uid").asText()).isEqualTo("${datasource}");
        assertThat(panel.get("targets")).isNotEmpty();
      }
    }
  }

  @Test
  void canBeTurnedOff() {
    assertThat(
            Chart.render("metrics: {dashboard: {enabled: false}}")
                .find(ConfigMap.class, "pointsman-dashboard"))
        .isEmpty();
  }
}
