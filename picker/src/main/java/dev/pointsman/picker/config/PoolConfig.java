package dev.pointsman.picker.config;

import dev.pointsman.inference.model.ModelEntry;
import dev.pointsman.inference.model.PoolTarget;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scheduling.Plugins;
import dev.pointsman.picker.scheduling.PolicyConfig;
import dev.pointsman.picker.scrape.Engine;
import dev.pointsman.picker.scrape.MetricsLocation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One pool of model-server endpoints.
 *
 * @param name pool name
 * @param engine the model server ({@code vllm}, {@code sglang}, {@code trtllm}, {@code
 *     triton-tensorrt-llm}): which metric names to read, and where by default
 * @param models base models this pool serves (used when the file has no top-level models)
 * @param endpoints the endpoints
 * @param policy the scheduling policy (null: Pointsman's default)
 * @param metricsPath the endpoints' metrics path (null: {@code scrape.path}, else the engine's:
 *     {@code /metrics}, trtllm-serve's {@code /prometheus/metrics})
 * @param metricsPort the endpoints' metrics port (null: the engine's — Triton's 8002 — else each
 *     endpoint's own port)
 */
public record PoolConfig(
    String name,
    String engine,
    List<String> models,
    List<EndpointConfig> endpoints,
    PolicyConfig policy,
    String metricsPath,
    Integer metricsPort) {

  public PoolConfig {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("name: '" + name + "' (expected a pool name)");
    }
    engine = engine == null ? "vllm" : engine;
    Engine.fromConfigName(engine);
    models = models == null ? List.of() : List.copyOf(models);
    endpoints = endpoints == null ? List.of() : List.copyOf(endpoints);
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < endpoints.size(); i++) {
      if (!seen.add(endpoints.get(i).address())) {
        throw new IllegalArgumentException(
            "endpoints[" + i + "].address: '" + endpoints.get(i).address() + "' (listed twice)");
      }
    }
    policy = policy == null ? PolicyConfig.defaults() : policy;
    if (metricsPort != null && (metricsPort < 1 || metricsPort > 65535)) {
      throw new IllegalArgumentException("metricsPort: " + metricsPort + " (expected 1..65535)");
    }
    MetricsLocation.of(metricsPath, metricsPort);
    try {
      Plugins.build(policy);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("policy." + e.getMessage(), e);
    }
  }

  /** A copy with other endpoints. */
  public PoolConfig withEndpoints(List<EndpointConfig> newEndpoints) {
    return new PoolConfig(name, engine, models, newEndpoints, policy, metricsPath, metricsPort);
  }

  /** Where the endpoints serve their metrics, when not at the engine's default. */
  public MetricsLocation metrics() {
    return MetricsLocation.of(metricsPath, metricsPort);
  }

  public Engine engineType() {
    return Engine.fromConfigName(engine);
  }

  public List<Endpoint> toEndpoints() {
    return endpoints.stream().map(e -> new Endpoint(e.address(), name, e.labels())).toList();
  }

  /** Base-model entries implied by the pools' {@code models} lists. */
  static List<ModelEntry> impliedModels(List<PoolConfig> pools) {
    Map<String, List<PoolTarget>> byModel = new LinkedHashMap<>();
    for (PoolConfig p : pools) {
      for (String m : p.models()) {
        byModel.computeIfAbsent(m, k -> new ArrayList<>()).add(PoolTarget.of(p.name()));
      }
    }
    return byModel.entrySet().stream().map(e -> ModelEntry.base(e.getKey(), e.getValue())).toList();
  }

  /**
   * One endpoint.
   *
   * @param address {@code host:port}
   * @param labels labels, e.g. {@code gpu: H100-80}
   */
  public record EndpointConfig(String address, Map<String, String> labels) {
    public EndpointConfig {
      if (address == null || !address.matches("[^\\s:]+:\\d{1,5}")) {
        throw new IllegalArgumentException("address: '" + address + "' (expected host:port)");
      }
      labels = labels == null ? Map.of() : Map.copyOf(labels);
    }
  }
}
