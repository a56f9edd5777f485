package dev.pointsman.picker.scrape;

import java.util.Arrays;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/** A model-server engine: how to read its {@code /metrics}. */
public enum Engine {
  VLLM("vllm", VllmMapper.NAMES, VllmMapper::new),
  SGLANG("sglang", SglangMapper.NAMES, SglangMapper::new),
  TRTLLM("trtllm", TrtllmMapper.NAMES, TrtllmMapper::new);

  private final String configName;
  private final Set<String> metricNames;
  private final Supplier<MetricsMapper> mappers;
  private final PrometheusTextParser parser;

  Engine(String configName, Set<String> metricNames, Supplier<MetricsMapper> mappers) {
    this.configName = configName;
    this.metricNames = metricNames;
    this.mappers = mappers;
    this.parser = PrometheusTextParser.only(metricNames);
  }

  /** The name used in configuration files: {@code vllm}, {@code sglang}, {@code trtllm}. */
  public String configName() {
    return configName;
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
