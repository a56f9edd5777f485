package dev.pointsman.fleet.config;

/**
 * Whether the fleet reads the Gateway API Inference Extension's InferencePoolImports (see
 * docs/fleet.md, "Imported pools") and where.
 *
 * @param enabled read them (default false: placement as without imports)
 * @param namespace the namespace they live in, that of the exported InferencePools (default: the
 *     fleet's own, from its service account or kubeconfig context)
 */
public record PoolImportsSection(Boolean enabled, String namespace) {
  public static final PoolImportsSection DEFAULTS = new PoolImportsSection(false, null);

  public PoolImportsSection {
    enabled = enabled != null && enabled;
    if (namespace != null && !namespace.matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")) {
      throw new IllegalArgumentException(
          "namespace: '"
              + namespace
              + "' (expected a namespace name, or leave it out for the fleet's own)");
    }
  }
}
