package dev.pointsman.inference.request;

import java.nio.charset.StandardCharsets;

/**
 * The request path as the shipped Envoy config normalises it before routing (deploy/envoy/
 * envoy.yaml: {@code path_with_escaped_slashes_action: REJECT_REQUEST}, {@code normalize_path:
 * true}, {@code merge_slashes: true}), in Envoy's order:
 *
 * <ol>
 *   <li>a fragment ({@code #}) or an escaped slash ({@code %2F}, {@code %5C}, either case) in the
 *       path is refused (Envoy answers 400);
 *   <li>RFC 3986 normalisation as Envoy's URL library does it: {@code \} becomes {@code /}; {@code
 *       .} and {@code ..} segments are resolved, never above the root, {@code %2e} counting as a
 *       dot; percent-escapes of unreserved characters (letters, digits, {@code -._~}) are decoded,
 *       other escapes are kept as written; characters not allowed in a path are percent-encoded; a
 *       NUL, raw or escaped, is refused;
 *   <li>runs of slashes are merged.
 * </ol>
 *
 * The query string is left alone. Thread-safe (stateless).
 */
public final class PathNormalizer {
  private static final int PASS = 0;
  private static final int ESCAPE = 1;
  private static final int UNESCAPE = 2;
  private static final int[] TABLE = table();

  private PathNormalizer() {}

  /** Normalises a {@code :path} (path and optional query). */
  public static NormalizedPath normalize(String target) {
    if (target == null || target.isEmpty()) {
      return new NormalizedPath.Invalid("the request has no path");
    }
    int q = target.indexOf('?');
    String path = q < 0 ? target : target.substring(0, q);
    String query = q < 0 ? "" : target.substring(q);
    if (path.indexOf('#') >= 0) {
      return new NormalizedPath.Invalid("the path has a fragment ('#')");
    }
    if (hasEscapedSlash(path)) {
      return new NormalizedPath.Invalid("the path has an escaped slash (%2F or %5C)");
    }
    String canonical = canonicalize(path);
    if (canonical == null) {
      return new NormalizedPath.Invalid("the path has a NUL character");
    }
    String merged = mergeSlashes(canonical);
    return new NormalizedPath.Valid(merged, query, merged.equals(path));
  }

  private static boolean hasEscapedSlash(String path) {
    for (int i = path.indexOf('%'); i >= 0 && i + 2 < path.length(); i = path.indexOf('%', i + 1)) {
      char a = path.charAt(i + 1);
      char b = Character.toLowerCase(path.charAt(i + 2));
      if ((a == '2' && b == 'f') || (a == '5' && b == 'c')) {
        return true;
      }
    }
    return false;
  }

  /** Envoy's {@code canonicalPath}: the URL library's path canonicalisation; null on failure. */
  private static String canonicalize(String path) {
    byte[] in = path.getBytes(StandardCharsets.UTF_8);
    StringBuilder out = new StringBuilder(in.length + 1);
    if (in.length == 0 || !isSlash(in[0])) {
      out.append('/');
    }
    int invalidPercent = Integer.MIN_VALUE;
    for (int i = 0; i < in.length; i++) {
      int ch = in[i] & 0xff;
      int dot = dotLength(in, i);
      if (dot > 0) {
        i = onDot(in, i, dot, out);
      } else if (ch == '\\') {
        out.append('/');
      } else if (ch == '%') {
        int value = decode(in, i);
        if (value < 0) {
          invalidPercent = out.length();
          out.append('%');
        } else if (value == 0) {
          return null;
        } else if (TABLE[value] == UNESCAPE) {
          out.append((char) value);
          i += 2;
          if (invalidPercent >= out.length() - 3) {
            fixNestedEscape(in, i + 1, invalidPercent, out);
          }
        } else {
          out.append('%').append((char) in[i + 1]).append((char) in[i + 2]);
          i += 2;
        }
      } else if (ch == 0) {
        return null;
      } else if (TABLE[ch] == ESCAPE) {
        out.append('%').append(hex(ch >> 4)).append(hex(ch & 0xf));
      } else {
        out.append((char) ch);
      }
    }
    return out.toString();
  }

  /** A dot (or {@code %2e}) at {@code i}: resolves it; returns the index of its last character. */
  private static int onDot(byte[] in, int i, int dot, StringBuilder out) {
    if (out.charAt(out.length() - 1) != '/') {
      out.append('.'); // part of a name
      return i + dot - 1;
    }
    int after = i + dot;
    if (after == in.length) {
      return i + dot - 1; // "/." at the end
    }
    if (isSlash(in[after])) {
      return after; // "/./"
    }
    int second = dotLength(in, after);
    if (second > 0) {
      int end = after + second;
      if (end == in.length || isSlash(in[end])) {
        backUp(out);
        return end == in.length ? end - 1 : end; // "/.." or "/../"
      }
    }
    out.append('.'); // "/.x" or "/..x": a name
    return i + dot - 1;
  }

  /** Removes the last segment of the output, which ends with a slash; never above the root. */
  private static void backUp(StringBuilder out) {
    int i = out.length() - 1;
    if (i == 0) {
      return;
    }
    i--;
    while (i > 0 && out.charAt(i) != '/') {
      i--;
    }
    out.setLength(i + 1);
  }

  /**
   * After an unescape right behind a '%' that began no valid escape, the output may now read as a
   * valid escape ("%%30%30" → "%00"): the URL library then writes that '%' as "%25".
   */
  private static void fixNestedEscape(byte[] in, int next, int percentAt, StringBuilder out) {
    int length = out.length();
    char last = out.charAt(length - 1);
    boolean appendNext = percentAt == length - 2;
    if (appendNext) {
      if (next == in.length || (in[next] & 0xff) >= 0x80) {
        return;
      }
      out.append((char) in[next]);
    }
    if (isHex(out.charAt(percentAt + 1)) && isHex(out.charAt(percentAt + 2))) {
      if (!appendNext) {
        out.append(out.charAt(percentAt + 1));
      }
      out.setCharAt(percentAt + 1, '2');
      out.setCharAt(percentAt + 2, '5');
      out.append(last);
    } else if (appendNext) {
      out.setLength(length);
    }
  }

  private static String mergeSlashes(String path) {
    if (!path.contains("//")) {
      return path;
    }
    StringBuilder out = new StringBuilder(path.length());
    for (int i = 0; i < path.length(); i++) {
      char c = path.charAt(i);
      if (c != '/' || out.isEmpty() || out.charAt(out.length() - 1) != '/') {
        out.append(c);
      }
    }
    return out.toString();
  }

  private static int dotLength(byte[] in, int i) {
    if (in[i] == '.') {
      return 1;
    }
    if (in[i] == '%' && i + 2 < in.length && in[i + 1] == '2' && (in[i + 2] | 0x20) == 'e') {
      return 3;
    }
    return 0;
  }

  private static boolean isSlash(byte b) {
    return b == '/' || b == '\\';
  }

  /** The byte value of a valid escape at {@code i} ("%4A"), or -1. */
  private static int decode(byte[] in, int i) {
    if (i + 2 >= in.length || !isHex((char) in[i + 1]) || !isHex((char) in[i + 2])) {
      return -1;
    }
    return Character.digit(in[i + 1], 16) * 16 + Character.digit(in[i + 2], 16);
  }

  private static boolean isHex(char c) {
    return Character.digit(c, 16) >= 0 && c < 0x80;
  }

  private static char hex(int v) {
    return "0123456789ABCDEF".charAt(v);
  }

  /** The URL library's path character classes (its kPathCharLookup), for the bytes we act on. */
  private static int[] table() {
    int[] t = new int[256];
    for (int c = 0; c < 256; c++) {
      boolean unreserved =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '-'
              || c == '_'
              || c == '~';
      if (unreserved) {
        t[c] = UNESCAPE;
      } else if (c < 0x20 || c >= 0x7f || " \"#<>?`{|}^".indexOf(c) >= 0) {
        t[c] = ESCAPE;
      } else {
        t[c] = PASS;
      }
    }
    return t;
  }
}
