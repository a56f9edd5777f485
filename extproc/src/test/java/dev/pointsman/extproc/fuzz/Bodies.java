package dev.pointsman.extproc.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import dev.pointsman.extproc.ModelRewrite;
import dev.pointsman.inference.error.RequestRejectedException;
import dev.pointsman.inference.request.BodyAccumulator;
import dev.pointsman.inference.request.ParsedRequest;
import dev.pointsman.inference.request.ParserLimits;
import dev.pointsman.inference.request.RequestParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** What the fuzz targets share: parsing in chunks, and the checks of a rewritten body. */
final class Bodies {
  /** Small enough that every input is bounded work; the defaults otherwise. */
  static final RequestParser PARSER =
      new RequestParser(new ParserLimits(1 << 20, ParserLimits.DEFAULT_MAX_PREFIX_CHARS, 64));

  /** A strict reference parser: one value, nothing after it, no length limits below ours. */
  static final ObjectMapper JSON =
      new ObjectMapper(
              JsonFactory.builder()
                  .streamReadConstraints(
                      StreamReadConstraints.builder()
                          .maxNumberLength(Integer.MAX_VALUE)
                          .maxStringLength(Integer.MAX_VALUE)
                          .maxNestingDepth(1000)
                          .build())
                  .build())
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private Bodies() {}

  /** Parses {@code chunks} as one body sent to {@code path}. */
  static ParsedRequest parse(String path, List<byte[]> chunks) {
    try (BodyAccumulator acc = PARSER.start(path)) {
      for (byte[] chunk : chunks) {
        acc.feed(chunk);
      }
      return acc.finish();
    }
  }

  /** The body in chunks whose sizes come from {@code random}, at most {@code max} each. */
  static List<byte[]> split(byte[] body, SplittableRandom random, int max) {
    List<byte[]> chunks = new ArrayList<>();
    for (int at = 0; at < body.length; ) {
      int n = Math.min(body.length - at, 1 + random.nextInt(max));
      byte[] chunk = new byte[n];
      System.arraycopy(body, at, chunk, 0, n);
      chunks.add(chunk);
      at += n;
    }
    return chunks;
  }

  /** The body one byte a chunk. */
  static List<byte[]> bytewise(byte[] body) {
    List<byte[]> chunks = new ArrayList<>(body.length);
    for (byte b : body) {
      chunks.add(new byte[] {b});
    }
    return chunks;
  }

  /** The body decoded strictly as UTF-8, or null if it is not UTF-8. */
  static String strictUtf8(byte[] body) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(body))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /** The reference parser's tree of {@code text}, or null if it is not one JSON value. */
  static JsonNode tree(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      return null;
    }
  }

  /** A rejection is one of the documented ones and reads as an OpenAI error. */
  static void checkRejection(RequestRejectedException e) {
    assertThat(e.reason()).isNotNull();
    assertThat(e.httpStatus()).isEqualTo(e.reason().httpStatus());
    assertThat(e.getMessage()).isNotBlank().hasSizeLessThan(600);
    try {
      JsonNode error = JSON.readTree(e.error().toJson()).get("error");
      assertThat(error.get("code").asText()).isEqualTo(e.reason().code());
      assertThat(error.get("type").asText()).isEqualTo(e.reason().type());
    } catch (IOException io) {
      throw new UncheckedIOException(io);
    }
  }

  /**
   * Rewrites {@code body} (parsed as {@code parsed}) to {@code served} and checks the result: valid
   * JSON, its {@code model} is {@code served}, every other member as before, and every byte outside
   * the model value (or the inserted member) unchanged.
   */
  static void checkRewrite(byte[] body, ParsedRequest parsed, String served) {
    ByteString in = ByteString.copyFrom(body);
    ByteString out = ModelRewrite.apply(in, parsed, served);
    if (served.equals(parsed.model())) {
      assertThat(out).isSameAs(in);
      return;
    }
    String text = strictUtf8(out.toByteArray());
    assertThat(text).as("rewritten body is UTF-8").isNotNull();
    JsonNode after = tree(text);
    assertThat(after).as("rewritten body is JSON: %s", text).isNotNull();
    assertThat(after.isObject()).isTrue();
    assertThat(after.get("model")).as("model of %s", text).isNotNull();
    assertThat(after.get("model").isTextual()).isTrue();
    assertThat(after.get("model").asText()).isEqualTo(served);

    JsonNode before = tree(new String(body, StandardCharsets.UTF_8));
    ((ObjectNode) before).remove("model");
    ((ObjectNode) after).remove("model");
    assertThat(after).as("members other than model").isEqualTo(before);

    checkBytesOutsideModel(in, out, served);
  }

  /**
   * Exactly one region differs: the old model token (found by the reference parser, not the one
   * under test) replaced by a JSON string, or a {@code "model":"..."} member (and a comma) inserted
   * just after the opening brace.
   */
  private static void checkBytesOutsideModel(ByteString in, ByteString out, String served) {
    long[] span = referenceSpan(in.toByteArray());
    if (span == null) {
      return;
    }
    String expected;
    int from;
    int to;
    if (span[1] >= 0) {
      from = (int) span[1];
      to = (int) span[2];
      String added = out.substring(from, out.size() - (in.size() - to)).toStringUtf8();
      assertThat(tree(added)).as("new model token %s", added).isNotNull();
      expected = tree(added).asText();
      assertThat(tree(added).isTextual()).isTrue();
    } else {
      from = (int) span[0] + 1;
      to = from;
      String added = out.substring(from, out.size() - (in.size() - to)).toStringUtf8();
      assertThat(added).startsWith("\"model\":");
      String member = added.endsWith(",") ? added.substring(0, added.length() - 1) : added;
      JsonNode inserted = tree("{" + member + "}");
      assertThat(inserted).as("inserted member %s", added).isNotNull();
      assertThat(inserted.size()).isEqualTo(1);
      expected = inserted.get("model").asText();
    }
    assertThat(expected).isEqualTo(served);
    assertThat(out.substring(0, from)).isEqualTo(in.substring(0, from));
    assertThat(out.substring(out.size() - (in.size() - to))).isEqualTo(in.substring(to));
  }

  /**
   * Root object offset, and the last top-level model string token's start and end (or -1); null if
   * the reference byte parser refuses the body.
   */
  private static long[] referenceSpan(byte[] body) {
    long[] span = {-1, -1, -1};
    try (JsonParser p = JSON.getFactory().createParser(body)) {
      int depth = 0;
      boolean model = false;
      for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
        if (depth == 0 && t == JsonToken.START_OBJECT) {
          span[0] = p.currentTokenLocation().getByteOffset();
        }
        if (depth == 1 && t == JsonToken.VALUE_STRING && model) {
          span[1] = p.currentTokenLocation().getByteOffset();
          p.getText();
          span[2] = p.currentLocation().getByteOffset();
        }
        model = depth == 1 && t == JsonToken.FIELD_NAME && p.currentName().equals("model");
        depth += t.isStructStart() ? 1 : t.isStructEnd() ? -1 : 0;
      }
    } catch (IOException e) {
      // Jackson's byte parser refuses a lone escaped surrogate in a name, which JSON allows and the
      // reader-based parser (and Python) accept: no byte-exact reference then; the members are
      // still compared.
      return null;
    }
    return span;
  }
}
