package dev.pointsman.picker.k8s.api;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The scheduling policy of one InferencePool ({@code spec.targetRef}) or, without a target, the
 * namespace default: scorer weights and parameters, picker, fallbacks and saturation.
 */
@Group(PickerPolicy.GROUP)
@Version("v1alpha1")
@Plural("pickerpolicies")
@ShortNames("ppol")
public final class PickerPolicy extends CustomResource<PickerPolicySpec, AcceptanceStatus>
    implements Namespaced {
  public static final String GROUP = "pointsman.dev";
}
