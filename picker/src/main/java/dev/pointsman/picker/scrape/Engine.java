package dev.pointsman.picker.scrape;

import java.util.Arrays;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/** A model-server engine: where its Prometheus metrics are served and how to read them. */
public enum Engine {
  VLLM("vllm", "/metrics", 0, VllmMapper.NAMES, VllmMapper::new),
  SGLANG("sglang", "/metrics", 0, SglangMapper.NAMES, SglangMapper::new),
  /** {@code trtllm-serve}: its {@code /metrics} is JSON iteration stats, the text is elsewhere. */
  TRTLLM("trtllm", "/prometheus/metrics", 0, TrtllmMapper.NAMES, TrtllmMapper::new),
  /** Triton Inference Server with the TensorRT-LLM backend: metrics on Triton's metrics port. */
  TRITON_TRTLLM(
      "triton-tensorrt-llm",
      "/metrics",
      TritonTrtllmMapper.METRICS_PORT,
      TritonTrtllmMapper.NAMES,
      TritonTrtllmMapper::new);

  private final String configName;
  private final String metricsPath;
  private final int metricsPort;
  private final Set<String> metricNames;
  private final Supplier<MetricsMapper> mappers;
  private final PrometheusTextParser parser;

  Engine(
      String configName,
      String metricsPath,
      int metricsPort,
      Set<String> metricNames,
      Supplier<MetricsMapper> mappers) {
    this.configName = configName;
    this.metricsPath = metricsPath;
    this.metricsPort = metricsPort;
    this.metricNames = metricNames;
    this.mappers = mappers;
    this.parser = PrometheusTextParser.only(metricNames);
  }

  /**
   * The name used in configuration files: {@code vllm}, {@code sglang}, {@code trtllm}, {@code
   * triton-tensorrt-llm}.
   */
  public String configName() {
    return configName;
  }

  /** Where the engine serves Prometheus text by default. */
  public String defaultMetricsPath() {
    return metricsPath;
  }

  /** The port it serves metrics on by default; 0 = the endpoint's own (inference) port. */
  public int defaultMetricsPort() {
    return metricsPort;
  }

  /** The metric names this engine's mapper reads. */
  public Set<String> metricNames() {
    return metricNames;
  }

  /** A parser keeping only {@link #metricNames()}. */
  public PrometheusTextParser parser() {
    return parser;
  }

  /** A new mapper for one endpoint (mappers keep per-endpoint counter state). */
  public MetricsMapper newMapper() {
    return mappers.get();
  }

  /** The engine with config name {@code name}. */
  public static Engine fromConfigName(String name) {
    Objects.requireNonNull(name, "engine");
    for (Engine e : values()) {
      if (e.configName.equals(name)) {
        return e;
      }
    }
    String expected =
        Arrays.stream(values()).map(Engine::configName).collect(Collectors.joining(", "));
    throw new IllegalArgumentException("engine: '" + name + "' (expected one of " + expected + ")");
  }
}
