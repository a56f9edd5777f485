package dev.pointsman.picker.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.datastore.PoolDefinition;
import dev.pointsman.picker.k8s.api.InferencePool;
import dev.pointsman.picker.scrape.Engine;
import dev.pointsman.picker.scrape.MetricsLocation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An InferencePool's metrics path and port, from its annotations (pure; no cluster). */
class MetricsAnnotationsTest {

  private static InferencePool annotated(Map<String, String> annotations) {
    InferencePool p = K8sObjects.pool("llama", Map.of("app", "vllm"), 8000);
    p.getMetadata().setAnnotations(annotations);
    return p;
  }

  @Test
  void annotationsSetThePathAndPortOthersKeepTheEnginesDefault() {
    assertThat(PoolMembership.metrics(annotated(null))).isEqualTo(MetricsLocation.DEFAULT);
    assertThat(
            PoolMembership.metrics(
                annotated(
                    Map.of(
                        InferencePool.METRICS_PATH_ANNOTATION, " /prometheus/metrics ",
                        InferencePool.METRICS_PORT_ANNOTATION, "8002"))))
        .isEqualTo(new MetricsLocation("/prometheus/metrics", 8002));
  }

  @Test
  void badAnnotationsLeaveThePoolOutWithTheirName() {
    List<String> problems = new ArrayList<>();
    List<PoolDefinition> defs =
        PoolMembership.compute(
            List.of(
                annotated(Map.of(InferencePool.METRICS_PORT_ANNOTATION, "http")),
                annotated(Map.of(InferencePool.METRICS_PATH_ANNOTATION, "metrics"))),
            List.of(),
            null,
            problems);

    assertThat(defs).isEmpty();
    assertThat(problems)
        .containsExactly(
            "InferencePool 'llama': metadata.annotations['pointsman.dev/metrics-port']: 'http'"
                + " (expected a port number 1..65535)",
            "InferencePool 'llama': metadata.annotations['pointsman.dev/metrics-path']:"
                + " metricsPath: 'metrics' (expected an absolute path such as /metrics)");
    assertThat(
            PoolMembership.compute(
                    List.of(
                        annotated(
                            Map.of(
                                InferencePool.ENGINE_ANNOTATION, "triton-tensorrt-llm",
                                InferencePool.METRICS_PORT_ANNOTATION, "9102"))),
                    List.of(),
                    null,
                    new ArrayList<>())
                .getFirst())
        .satisfies(
            d -> {
              assertThat(d.engine()).isEqualTo(Engine.TRITON_TRTLLM);
              assertThat(d.metrics()).isEqualTo(new MetricsLocation(null, 9102));
            });
  }
}
