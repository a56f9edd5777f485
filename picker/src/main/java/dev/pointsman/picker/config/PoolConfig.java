package dev.pointsman.picker.config;

import dev.pointsman.inference.model.ModelEntry;
import dev.pointsman.inference.model.PoolTarget;
import dev.pointsman.picker.kvevents.KvEventsSettings;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scheduling.Plugins;
import dev.pointsman.picker.scheduling.PolicyConfig;
import dev.pointsman.picker.scheduling.prior.ModelSize;
import dev.pointsman.picker.scheduling.prior.SpeedPriors;
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
 * @param modelParams the served model's parameter count ({@code 8b}, {@code 70b}), for the speed
 *     prior; null: the size the model names hint ({@code Llama-3.1-70B-Instruct} → 70b), if any
 * @param kvEvents the subscription to the engines' KV-cache events (see {@code docs/kv-events.md});
 *     null: off
 */
public record PoolConfig(
    String name,
    String engine,
    List<String> models,
    List<EndpointConfig> endpoints,
    PolicyConfig policy,
    String metricsPath,
    Integer metricsPort,
    String modelParams,
    KvEventsSettings kvEvents) {

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
    if (modelParams != null && ModelSize.parse(modelParams).isEmpty()) {
      throw new IllegalArgumentException(
          "modelParams: '" + modelParams + "' (expected a size such as 8b, 70b or 8x7b)");
    }
    policy = policy == null ? PolicyConfig.defaults() : policy;
    kvEvents = kvEvents == null ? KvEventsSettings.OFF : kvEvents;
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

  /** A pool with the default model size (from its model names). */
  public PoolConfig(
      String name,
      String engine,
      List<String> models,
      List<EndpointConfig> endpoints,
      PolicyConfig policy) {
    this(name, engine, models, endpoints, policy, null, null, null, null);
  }

  /** A copy with other endpoints. */
  public PoolConfig withEndpoints(List<EndpointConfig> newEndpoints) {
    return new PoolConfig(
        name,
        engine,
        models,
        newEndpoints,
        policy,
        metricsPath,
        metricsPort,
        modelParams,
        kvEvents);
  }

  /** Where the endpoints serve their metrics, when not at the engine's default. */
  public MetricsLocation metrics() {
    return MetricsLocation.of(metricsPath, metricsPort);
  }

  public Engine engineType() {
    return Engine.fromConfigName(engine);
  }

  /**
   * The endpoints, each labelled with the pool's model size ({@value
   * SpeedPriors#MODEL_PARAMS_LABEL}) unless its own labels state one.
   */
  public List<Endpoint> toEndpoints() {
    String size = modelSize();
    return endpoints.stream()
        .map(
            e -> {
              if (size == null || e.labels().containsKey(SpeedPriors.MODEL_PARAMS_LABEL)) {
                return new Endpoint(e.address(), name, e.labels());
              }
              Map<String, String> labels = new LinkedHashMap<>(e.labels());
              labels.put(SpeedPriors.MODEL_PARAMS_LABEL, size);
              return new Endpoint(e.address(), name, labels);
            })
        .toList();
  }

  /** The stated model size, or the one every model name hints alike, or null. */
  private String modelSize() {
    if (modelParams != null) {
      return modelParams;
    }
    Set<Double> hinted = new HashSet<>();
    for (String m : models) {
      hinted.add(ModelSize.fromName(m).orElse(Double.NaN));
    }
    if (hinted.size() != 1 || hinted.contains(Double.NaN)) {
      return null;
    }
    return hinted.iterator().next() + "b";
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
