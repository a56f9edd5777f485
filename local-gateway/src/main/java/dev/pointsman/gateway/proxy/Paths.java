package dev.pointsman.gateway.proxy;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Path normalization as the Envoy config asks ({@code normalize_path}, {@code merge_slashes}):
 * repeated slashes merged, {@code .} and {@code ..} segments resolved (never above the root); the
 * query string is left alone.
 */
final class Paths {
  private Paths() {}

  static String normalize(String uri) {
    int q = uri.indexOf('?');
    String path = q < 0 ? uri : uri.substring(0, q);
    String query = q < 0 ? "" : uri.substring(q);
    if (!path.startsWith("/")) {
      return uri; // absolute-form or '*': leave it to the upstream
    }
    Deque<String> out = new ArrayDeque<>();
    for (String segment : path.split("/")) {
      switch (segment) {
        case "", "." -> {}
        case ".." -> out.pollLast();
        default -> out.addLast(segment);
      }
    }
    StringBuilder sb = new StringBuilder();
    out.forEach(s -> sb.append('/').append(s));
    boolean trailing = path.endsWith("/") && !out.isEmpty();
    if (sb.isEmpty() || trailing) {
      sb.append('/');
    }
    return sb + query;
  }
}
