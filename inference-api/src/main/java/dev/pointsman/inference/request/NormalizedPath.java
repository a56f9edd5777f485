package dev.pointsman.inference.request;

import java.util.Objects;

/** What {@link PathNormalizer} made of a request path. */
public sealed interface NormalizedPath {

  /**
   * A path Envoy would route on.
   *
   * @param path the normalised path
   * @param query the query string as sent, with its {@code ?}, or empty
   * @param unchanged whether the path was already in normal form (sent exactly as routed)
   */
  record Valid(String path, String query, boolean unchanged) implements NormalizedPath {
    public Valid {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(query, "query");
    }

    /** The path and query, as Envoy forwards them. */
    public String target() {
      return path + query;
    }
  }

  /**
   * A path Envoy refuses with 400 before routing.
   *
   * @param reason why, for the error message
   */
  record Invalid(String reason) implements NormalizedPath {
    public Invalid {
      Objects.requireNonNull(reason, "reason");
    }
  }
}
