package dev.pointsman.picker.k8s;

import dev.pointsman.picker.datastore.PoolDefinition;
import dev.pointsman.picker.k8s.api.InferencePool;
import dev.pointsman.picker.k8s.api.InferencePoolSpec;
import dev.pointsman.picker.k8s.api.Port;
import dev.pointsman.picker.scheduling.AppProtocol;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scrape.Engine;
import dev.pointsman.picker.scrape.MetricsLocation;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * InferencePools and pods to pool definitions: each target port of each serving pod a pool selects
 * is one endpoint ({@code podIP:port}, labelled with the pod's labels). Pure.
 */
final class PoolMembership {
  private PoolMembership() {}

  /**
   * @param boundPool the only pool to keep (Endpoint Picker Protocol mode), or null for all
   * @param problems collects one line per pool that could not be used
   */
  static List<PoolDefinition> compute(
      Collection<InferencePool> pools,
      Collection<Pod> pods,
      String boundPool,
      List<String> problems) {
    List<Pod> serving =
        pods.stream()
            .filter(PodEndpoints::serving)
            .sorted(Comparator.comparing(p -> p.getMetadata().getName()))
            .toList();
    List<PoolDefinition> out = new ArrayList<>();
    pools.stream()
        .filter(p -> boundPool == null || boundPool.equals(Objects2.name(p)))
        .sorted(Comparator.comparing(Objects2::name))
        .forEach(
            pool -> {
              try {
                out.add(definition(pool, serving));
              } catch (IllegalArgumentException e) {
                problems.add("InferencePool '" + Objects2.name(pool) + "': " + e.getMessage());
              }
            });
    return out;
  }

  static Engine engine(InferencePool pool) {
    Map<String, String> annotations = pool.getMetadata().getAnnotations();
    String name = annotations == null ? null : annotations.get(InferencePool.ENGINE_ANNOTATION);
    try {
      return name == null ? Engine.VLLM : Engine.fromConfigName(name.trim());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "metadata.annotations['" + InferencePool.ENGINE_ANNOTATION + "']: " + e.getMessage(), e);
    }
  }

  /**
   * Where the pool's endpoints serve metrics: the {@code pointsman.dev/metrics-path} and {@code
   * pointsman.dev/metrics-port} annotations, each defaulting to the engine's.
   */
  static MetricsLocation metrics(InferencePool pool) {
    Map<String, String> annotations = pool.getMetadata().getAnnotations();
    String path = annotation(annotations, InferencePool.METRICS_PATH_ANNOTATION);
    String port = annotation(annotations, InferencePool.METRICS_PORT_ANNOTATION);
    try {
      MetricsLocation.of(path, null);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "metadata.annotations['"
              + InferencePool.METRICS_PATH_ANNOTATION
              + "']: "
              + e.getMessage(),
          e);
    }
    int number = port != null && port.matches("\\d{1,5}") ? Integer.parseInt(port) : -1;
    if (port != null && (number < 1 || number > 65535)) {
      throw new IllegalArgumentException(
          "metadata.annotations['"
              + InferencePool.METRICS_PORT_ANNOTATION
              + "']: '"
              + port
              + "' (expected a port number 1..65535)");
    }
    return MetricsLocation.of(path, port == null ? null : number);
  }

  private static String annotation(Map<String, String> annotations, String key) {
    String v = annotations == null ? null : annotations.get(key);
    return v == null ? null : v.trim();
  }

  private static PoolDefinition definition(InferencePool pool, List<Pod> serving) {
    String name = Objects2.name(pool);
    Engine engine = engine(pool);
    InferencePoolSpec spec = pool.getSpec();
    List<Integer> ports = ports(spec);
    AppProtocol protocol = AppProtocol.of(spec.appProtocol());
    Map<String, String> selector =
        spec == null || spec.selector() == null ? null : spec.selector().matchLabels();
    List<Endpoint> endpoints = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Pod pod : serving) {
      Map<String, String> labels = pod.getMetadata().getLabels();
      if (!PodEndpoints.selects(selector, labels)) {
        continue;
      }
      for (int port : ports) {
        String address = PodEndpoints.address(pod.getStatus().getPodIP(), port);
        if (seen.add(address)) {
          endpoints.add(new Endpoint(address, name, labels));
        }
      }
    }
    return new PoolDefinition(name, engine, endpoints, protocol, metrics(pool));
  }

  private static List<Integer> ports(InferencePoolSpec spec) {
    if (spec == null || spec.targetPorts() == null) {
      throw new IllegalArgumentException("spec.targetPorts: absent (expected 1 to 8 ports)");
    }
    List<Integer> ports = new ArrayList<>();
    for (int i = 0; i < spec.targetPorts().size(); i++) {
      Port p = spec.targetPorts().get(i);
      Integer n = p == null ? null : p.number();
      if (n == null || n < 1 || n > 65535) {
        throw new IllegalArgumentException(
            "spec.targetPorts[" + i + "].number: " + n + " (expected 1..65535)");
      }
      if (!ports.contains(n)) {
        ports.add(n);
      }
    }
    return ports;
  }
}
