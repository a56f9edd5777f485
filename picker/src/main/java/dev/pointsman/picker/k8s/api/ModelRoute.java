package dev.pointsman.picker.k8s.api;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/** A served model: its name, aliases, LoRA adapters and the pools serving it (pointsman.dev). */
@Group(ModelRoute.GROUP)
@Version("v1alpha1")
@Plural("modelroutes")
@ShortNames("mroute")
public final class ModelRoute extends CustomResource<ModelRouteSpec, AcceptanceStatus>
    implements Namespaced {
  public static final String GROUP = "pointsman.dev";
}
