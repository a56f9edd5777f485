package dev.pointsman.picker.k8s;

import dev.pointsman.picker.k8s.api.EndpointPickerRef;
import dev.pointsman.picker.k8s.api.InferencePool;
import dev.pointsman.picker.k8s.api.InferencePoolSpec;
import dev.pointsman.picker.k8s.api.ModelRoute;
import dev.pointsman.picker.k8s.api.ModelRouteSpec;
import dev.pointsman.picker.k8s.api.PickerPolicy;
import dev.pointsman.picker.k8s.api.PickerPolicySpec;
import dev.pointsman.picker.k8s.api.PoolSelector;
import dev.pointsman.picker.k8s.api.Port;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.Arrays;
import java.util.Map;

/** Builders of the Kubernetes objects the tests create. */
final class K8sObjects {
  private K8sObjects() {}

  static ObjectMeta meta(String name) {
    return new ObjectMetaBuilder().withName(name).withNamespace(MockCluster.NS).build();
  }

  static InferencePool pool(String name, Map<String, String> selector, Integer... ports) {
    InferencePool p = new InferencePool();
    p.setMetadata(meta(name));
    p.setSpec(
        new InferencePoolSpec(
            new PoolSelector(selector),
            Arrays.stream(ports).map(Port::new).toList(),
            new EndpointPickerRef(null, "Service", "picker", new Port(9002), "FailClose"),
            null));
    return p;
  }

  /** A pod with labels, not yet scheduled (no IP, not ready). */
  static Pod pod(String name, Map<String, String> labels) {
    return new PodBuilder()
        .withMetadata(meta(name))
        .editMetadata()
        .withLabels(labels)
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName("server")
        .withImage("vllm/vllm-openai")
        .endContainer()
        .endSpec()
        .build();
  }

  /** The pod as the kubelet reports it once running: an IP and the given readiness. */
  static Pod running(Pod pod, String ip, boolean ready) {
    return new PodBuilder(pod)
        .withNewStatus()
        .withPhase("Running")
        .withPodIP(ip)
        .addNewCondition()
        .withType("Ready")
        .withStatus(ready ? "True" : "False")
        .endCondition()
        .endStatus()
        .build();
  }

  static PickerPolicy policy(String name, PickerPolicySpec spec) {
    PickerPolicy p = new PickerPolicy();
    p.setMetadata(meta(name));
    p.setSpec(spec);
    return p;
  }

  static ModelRoute route(String name, ModelRouteSpec spec) {
    ModelRoute r = new ModelRoute();
    r.setMetadata(meta(name));
    r.setSpec(spec);
    return r;
  }
}
