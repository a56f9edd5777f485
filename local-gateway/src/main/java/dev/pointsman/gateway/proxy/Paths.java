package dev.pointsman.gateway.proxy;

import dev.pointsman.inference.request.NormalizedPath;
import dev.pointsman.inference.request.PathNormalizer;

/**
 * Path normalisation as the Envoy config asks ({@code path_with_escaped_slashes_action:
 * REJECT_REQUEST}, {@code normalize_path}, {@code merge_slashes}): the same {@link PathNormalizer}
 * the picker checks against, so the gateway routes exactly what Envoy would.
 */
final class Paths {
  private Paths() {}

  static NormalizedPath normalize(String uri) {
    return PathNormalizer.normalize(uri);
  }
}
