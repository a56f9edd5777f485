package dev.pointsman.extproc;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.google.protobuf.ByteString;
import dev.pointsman.inference.request.ParsedRequest;
import java.nio.charset.StandardCharsets;

/**
 * Rewrites the {@code model} of a JSON request body in place, byte for byte everywhere else: an
 * alias becomes the name the model server knows, and a request that relied on the default model
 * gets it inserted. Model servers answer 404 to names they do not serve, so this is what makes
 * aliases and default models work.
 */
public final class ModelRewrite {
  private ModelRewrite() {}

  /**
   * The body with its model set to {@code model}, or the body itself when it already says so or the
   * positions are unknown.
   */
  public static ByteString apply(ByteString body, ParsedRequest parsed, String model) {
    ParsedRequest.ModelSpan span = parsed.span();
    if (model == null || model.equals(parsed.model())) {
      return body;
    }
    ByteString quoted = quoted(model);
    int start = locate(body, span.valueStart(), '"');
    if (start >= 0 && span.valueEnd() > start && span.valueEnd() <= body.size()) {
      return body.substring(0, start).concat(quoted).concat(body.substring((int) span.valueEnd()));
    }
    int open = locate(body, span.objectStart(), '{');
    if (parsed.model() == null && open >= 0) {
      int at = open + 1;
      ByteString field = ByteString.copyFromUtf8("\"model\":").concat(quoted);
      boolean empty = isEmptyObject(body, at);
      return body.substring(0, at)
          .concat(field)
          .concat(ByteString.copyFromUtf8(empty ? "" : ","))
          .concat(body.substring(at));
    }
    return body;
  }

  /**
   * The position of {@code c} at or just before {@code offset}: the parser reports a token's offset
   * either at its first byte or just past it. -1 when it is not there.
   */
  private static int locate(ByteString body, long offset, char c) {
    for (long i = offset; i >= 0 && i >= offset - 1; i--) {
      if (i < body.size() && body.byteAt((int) i) == c) {
        return (int) i;
      }
    }
    return -1;
  }

  private static ByteString quoted(String model) {
    char[] escaped = JsonStringEncoder.getInstance().quoteAsString(model);
    return ByteString.copyFrom("\"" + new String(escaped) + "\"", StandardCharsets.UTF_8);
  }

  private static boolean isEmptyObject(ByteString body, int from) {
    for (int i = from; i < body.size(); i++) {
      byte b = body.byteAt(i);
      if (b == '}') {
        return true;
      }
      if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
        return false;
      }
    }
    return false;
  }
}
