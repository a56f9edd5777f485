package dev.pointsman.inference.request;

/** The OpenAI API a request targets, from its {@code :path}. */
public enum ApiKind {
  CHAT("/v1/chat/completions"),
  COMPLETIONS("/v1/completions"),
  EMBEDDINGS("/v1/embeddings"),
  RESPONSES("/v1/responses"),
  OTHER(null);

  private final String path;

  ApiKind(String path) {
    this.path = path;
  }

  /** The kind for a request path; the query string and a trailing slash are ignored. */
  public static ApiKind fromPath(String requestPath) {
    if (requestPath == null) {
      return OTHER;
    }
    int end = requestPath.indexOf('?');
    end = end < 0 ? requestPath.length() : end;
    if (end > 1 && requestPath.charAt(end - 1) == '/') {
      end--;
    }
    for (ApiKind kind : values()) {
      if (kind.path != null
          && kind.path.length() == end
          && requestPath.regionMatches(0, kind.path, 0, end)) {
        return kind;
      }
    }
    return OTHER;
  }
}
