/**
 * The picker in Kubernetes: the only package that sees fabric8.
 *
 * <p>{@link dev.pointsman.picker.k8s.KubernetesPoolSource} runs shared informers on InferencePools,
 * Pods, ModelRoutes and PickerPolicies of one namespace. Informer handlers only mark the state
 * dirty; one reconciler thread recomputes from the caches and publishes what changed:
 *
 * <ul>
 *   <li>membership to the {@code Datastore}: each target port of each Ready, non-terminating pod
 *       with an IP that a pool's {@code spec.selector} selects is one endpoint {@code podIP:port}
 *       (IPv6 in brackets), labelled with the pod's labels; the engine comes from the pool's {@code
 *       pointsman.dev/engine} annotation ({@code vllm} by default), where its metrics are from the
 *       {@code pointsman.dev/metrics-path} and {@code pointsman.dev/metrics-port} annotations (the
 *       engine's defaults);
 *   <li>each pool's policy to the {@code PolicyRegistry}: the oldest valid PickerPolicy targeting
 *       the pool, else the oldest valid namespace default (no {@code targetRef}), else the built-in
 *       default; an invalid change keeps the last valid generation of that policy;
 *   <li>a new {@code ModelResolver}: ModelRoutes, oldest first, plus models listed in the {@code
 *       pointsman.dev/models} annotation of pools for ids no route claims.
 * </ul>
 *
 * <p>Readiness: false until every informer has synced and the first state is published (and, in
 * Endpoint Picker Protocol mode, until the bound InferencePool exists). Every replica serves; the
 * one holding the Lease {@code pointsman-picker-status} writes the {@code Accepted} condition and
 * {@code observedGeneration} of ModelRoutes and PickerPolicies, on its own thread.
 *
 * <h2>RBAC (the least the picker needs, in its namespace)</h2>
 *
 * <table>
 *   <caption>Permissions</caption>
 *   <tr><th>API group</th><th>resources</th><th>verbs</th></tr>
 *   <tr><td>""</td><td>pods</td><td>get, list, watch</td></tr>
 *   <tr><td>inference.networking.k8s.io</td><td>inferencepools</td><td>get, list, watch</td></tr>
 *   <tr><td>pointsman.dev</td><td>modelroutes, pickerpolicies</td><td>get, list, watch</td></tr>
 *   <tr><td>pointsman.dev</td><td>modelroutes/status, pickerpolicies/status</td>
 *       <td>get, patch, update</td></tr>
 *   <tr><td>coordination.k8s.io</td><td>leases</td><td>create; get, update, patch on
 *       {@code pointsman-picker-status}</td></tr>
 * </table>
 *
 * <p>As YAML (ServiceAccount, Role, RoleBinding): {@code deploy/rbac/picker-rbac.yaml}. The pod
 * should set {@code POD_NAMESPACE} and {@code POD_NAME} from the downward API.
 */
package dev.pointsman.picker.k8s;
