package dev.pointsman.picker.k8s.api;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A tenant's token and request budget per minute, for one model or all (pointsman.dev): what the
 * picker's flow control enforces on requests carrying that fairness id.
 */
@Group(ModelRoute.GROUP)
@Version("v1alpha1")
@Plural("tenantbudgets")
@ShortNames("tbudget")
public final class TenantBudget extends CustomResource<TenantBudgetSpec, TenantBudgetStatus>
    implements Namespaced {}
