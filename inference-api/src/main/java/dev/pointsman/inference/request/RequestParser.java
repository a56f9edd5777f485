package dev.pointsman.inference.request;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import dev.pointsman.inference.error.RejectReason;
import dev.pointsman.inference.error.RequestRejectedException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Parses OpenAI request bodies ({@code /v1/chat/completions}, {@code /v1/completions}, {@code
 * /v1/embeddings}, {@code /v1/responses}) with a streaming, non-blocking JSON parser into a {@link
 * ParsedRequest}. Immutable and thread-safe; each body gets its own {@link BodyAccumulator}.
 * Failures are {@link RequestRejectedException}s.
 */
public final class RequestParser {
  private final ParserLimits limits;
  private final JsonFactory json;

  /** A parser with the given limits. */
  public RequestParser(ParserLimits limits) {
    this.limits = Objects.requireNonNull(limits, "limits");
    this.json =
        JsonFactory.builder()
            .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
            .streamReadConstraints(
                StreamReadConstraints.builder()
                    .maxNestingDepth(limits.maxDepth() + 1)
                    .maxStringLength((int) Math.min(Integer.MAX_VALUE, limits.maxBodyBytes()))
                    .build())
            .build();
  }

  /** A parser with {@link ParserLimits#defaults()}. */
  public static RequestParser withDefaults() {
    return new RequestParser(ParserLimits.defaults());
  }

  /** The limits applied. */
  public ParserLimits limits() {
    return limits;
  }

  /** Starts parsing a body sent to {@code path} (the {@code :path} header, may be null). */
  public BodyAccumulator start(String path) {
    return start(ApiKind.fromPath(path));
  }

  /** Starts parsing a body of the given kind. */
  public BodyAccumulator start(ApiKind kind) {
    return start(kind, true);
  }

  /** {@code elide}: off only to check that taking strings out of Jackson's way changes nothing. */
  BodyAccumulator start(ApiKind kind, boolean elide) {
    try {
      return new BodyAccumulator(json.createNonBlockingByteArrayParser(), limits, kind, elide);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Parses a whole body. */
  public ParsedRequest parse(String path, byte[] body) {
    try (BodyAccumulator accumulator = start(path)) {
      accumulator.feed(body);
      return accumulator.finish();
    }
  }

  /** Parses a body given as a sequence of chunks, without joining them. */
  public ParsedRequest parse(String path, List<ByteBuffer> chunks) {
    try (BodyAccumulator accumulator = start(path)) {
      for (ByteBuffer chunk : chunks) {
        accumulator.feed(chunk);
      }
      return accumulator.finish();
    }
  }

  /**
   * Accepts an absent content type and JSON ones ({@code application/json}, {@code
   * application/*+json}) in UTF-8; rejects anything else with 415.
   */
  public static void checkContentType(String contentType) {
    if (contentType == null || contentType.isBlank()) {
      return;
    }
    String[] parts = contentType.split(";");
    String media = parts[0].strip().toLowerCase(Locale.ROOT);
    boolean json =
        media.equals("application/json")
            || media.startsWith("application/") && media.endsWith("+json");
    if (!json || !utf8(parts)) {
      throw new RequestRejectedException(
          RejectReason.BAD_CONTENT_TYPE,
          "content-type '"
              + abbreviate(contentType)
              + "' is not supported (expected application/json in UTF-8)");
    }
  }

  private static boolean utf8(String[] parts) {
    for (int i = 1; i < parts.length; i++) {
      String param = parts[i].strip().toLowerCase(Locale.ROOT);
      if (param.startsWith("charset=")) {
        String charset = param.substring("charset=".length()).replace("\"", "").strip();
        return charset.equals("utf-8") || charset.equals("utf8");
      }
    }
    return true;
  }

  private static String abbreviate(String text) {
    return text.length() > 100 ? text.substring(0, 100) + "..." : text;
  }
}
