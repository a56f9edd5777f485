package dev.pointsman.picker.k8s.api;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The upstream Gateway API Inference Extension {@code InferencePool}
 * (inference.networking.k8s.io/v1): the pods selected by {@code spec.selector}, each of whose
 * {@code spec.targetPorts} is one endpoint. Read only; Pointsman never writes its status.
 */
@Group(InferencePool.GROUP)
@Version("v1")
@Plural("inferencepools")
@ShortNames("infpool")
public final class InferencePool extends CustomResource<InferencePoolSpec, InferencePoolStatus>
    implements Namespaced {
  public static final String GROUP = "inference.networking.k8s.io";

  /** Annotation naming the pool's model server engine ({@code vllm}, {@code sglang}, ...). */
  public static final String ENGINE_ANNOTATION = "pointsman.dev/engine";

  /** Where the pool's endpoints serve metrics, when not at the engine's default path. */
  public static final String METRICS_PATH_ANNOTATION = "pointsman.dev/metrics-path";

  /** The port the pool's endpoints serve metrics on, when not the engine's default. */
  public static final String METRICS_PORT_ANNOTATION = "pointsman.dev/metrics-port";

  /** Annotation listing, comma separated, the base models a pool without a ModelRoute serves. */
  public static final String MODELS_ANNOTATION = "pointsman.dev/models";
}
