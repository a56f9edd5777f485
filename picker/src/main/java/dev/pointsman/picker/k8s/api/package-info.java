/**
 * The Kubernetes resources the picker reads, as fabric8 custom resources: the upstream {@code
 * InferencePool} (inference.networking.k8s.io/v1) and Pointsman's {@code ModelRoute} and {@code
 * PickerPolicy} (pointsman.dev/v1alpha1). The CRDs are in {@code crds/}; {@code CrdSchemaTest}
 * fails when a field exists on one side only.
 */
package dev.pointsman.picker.k8s.api;
