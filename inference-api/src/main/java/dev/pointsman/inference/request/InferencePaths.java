package dev.pointsman.inference.request;

import dev.pointsman.inference.error.OpenAiError;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The allow-list of what a gateway routes to a model server: {@code POST} on the inference API's
 * body-carrying paths ({@code /v1/chat/completions}, {@code /v1/completions}, {@code
 * /v1/embeddings}, {@code /v1/responses} by default; configurable), and the model listing ({@code
 * GET}/{@code HEAD /v1/models} and {@code /v1/models/{id}}), which the gateway answers itself.
 * Everything else (a model server's admin API such as vLLM's {@code /v1/load_lora_adapter}, its
 * {@code /metrics}, any other path or method) is refused with 404 and never forwarded. Paths are
 * compared exactly, on the normalised path ({@link PathNormalizer}). Immutable and thread-safe.
 *
 * @param routed the {@code POST} paths routed to a model server, each in normal form
 */
public record InferencePaths(List<String> routed) {
  /** The model listing, answered by the gateway. */
  public static final String MODELS = "/v1/models";

  /** The OpenAI inference API's body-carrying paths. */
  public static final List<String> DEFAULT_ROUTED =
      List.of("/v1/chat/completions", "/v1/completions", "/v1/embeddings", "/v1/responses");

  public static final InferencePaths DEFAULTS = new InferencePaths(DEFAULT_ROUTED);

  public InferencePaths {
    if (routed == null || routed.isEmpty()) {
      throw new IllegalArgumentException("routedPaths: [] (expected at least one path)");
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < routed.size(); i++) {
      String p = routed.get(i);
      String where = "routedPaths[" + i + "]: '" + p + "'";
      if (p == null || !p.startsWith("/") || p.indexOf('?') >= 0 || p.indexOf('%') >= 0) {
        throw new IllegalArgumentException(
            where + " (expected a path like /v1/rerank: no query, no percent-escapes)");
      }
      if (!(PathNormalizer.normalize(p) instanceof NormalizedPath.Valid v)
          || !v.unchanged()
          || (p.length() > 1 && p.endsWith("/"))) {
        throw new IllegalArgumentException(
            where
                + " (expected a path in normal form: no dot segments, doubled or trailing"
                + " slashes, backslashes)");
      }
      if (p.equals(MODELS) || p.startsWith(MODELS + "/")) {
        throw new IllegalArgumentException(
            where + " (the model listing is answered by the gateway, never routed)");
      }
      if (!seen.add(p)) {
        throw new IllegalArgumentException(where + " (listed twice)");
      }
    }
    routed = List.copyOf(routed);
  }

  /** The defaults, or the configured paths. */
  public static InferencePaths of(List<String> routed) {
    return routed == null ? DEFAULTS : new InferencePaths(routed);
  }

  /**
   * The decision for a request on an already normalised path (what Envoy routes on, and what the
   * local gateway computes as Envoy does).
   *
   * @param method {@code :method}
   * @param path the normalised path, without the query string
   */
  public PathDecision decide(String method, String path) {
    boolean listing = method.equals("GET") || method.equals("HEAD");
    if (listing && path.equals(MODELS)) {
      return new PathDecision.ModelList(method.equals("HEAD"));
    }
    if (listing && path.startsWith(MODELS + "/") && path.length() > MODELS.length() + 1) {
      String id = percentDecode(path.substring(MODELS.length() + 1));
      return new PathDecision.ModelRetrieve(id, method.equals("HEAD"));
    }
    if (method.equals("POST") && routed.contains(path)) {
      return new PathDecision.Routed(path);
    }
    return new PathDecision.Refused(
        new OpenAiError(
            404,
            "no route for "
                + abbreviate(method)
                + " "
                + abbreviate(path)
                + ": this gateway serves only the inference API ("
                + String.join(", ", routed)
                + " by POST; GET /v1/models)",
            "not_found_error",
            "unknown_path"),
        "unknown_path");
  }

  /**
   * The decision for a path as received, trusting no one to have normalised it: a path Envoy would
   * refuse is refused with 400, and a path not in normal form (dot segments, doubled slashes,
   * backslashes, escaped unreserved characters) with 404, never guessed at.
   *
   * @param method {@code :method}
   * @param path {@code :path}, without the query string
   */
  public PathDecision decideStrict(String method, String path) {
    return switch (PathNormalizer.normalize(path)) {
      case NormalizedPath.Invalid i ->
          new PathDecision.Refused(
              new OpenAiError(
                  400,
                  "invalid path '" + abbreviate(path) + "': " + i.reason(),
                  "invalid_request_error",
                  "invalid_path"),
              "invalid_path");
      case NormalizedPath.Valid v when !v.unchanged() ->
          new PathDecision.Refused(
              new OpenAiError(
                  404,
                  "no route for "
                      + abbreviate(method)
                      + " "
                      + abbreviate(path)
                      + ": the path is not in normal form (it normalises to "
                      + abbreviate(v.path())
                      + ")",
                  "not_found_error",
                  "unknown_path"),
              "unknown_path");
      case NormalizedPath.Valid v -> decide(method, v.path());
    };
  }

  /** Decodes %XX escapes as UTF-8 ('+' is not a space in a path); a stray '%' stays. */
  private static String percentDecode(String s) {
    if (s.indexOf('%') < 0) {
      return s;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
    byte[] in = s.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i < in.length; i++) {
      int hi = i + 2 < in.length ? Character.digit(in[i + 1], 16) : -1;
      int lo = i + 2 < in.length ? Character.digit(in[i + 2], 16) : -1;
      if (in[i] == '%' && hi >= 0 && lo >= 0) {
        out.write(hi * 16 + lo);
        i += 2;
      } else {
        out.write(in[i]);
      }
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private static String abbreviate(String text) {
    return text.length() > 200 ? text.substring(0, 200) + "..." : text;
  }
}
