package dev.pointsman.inference.request;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.pointsman.inference.error.RejectReason;
import dev.pointsman.inference.error.RequestRejectedException;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every ill-formed UTF-8 sequence is refused wherever it sits in the body and however the body is
 * cut into chunks; every well-formed one is accepted the same way.
 */
class Utf8Test {
  private static final RequestParser PARSER = RequestParser.withDefaults();

  /** Where a sequence is put: before and after it. */
  private static final List<String[]> PLACES =
      List.of(
          new String[] {"{\"messages\":[{\"role\":\"user\",\"content\":\"a", "b\"}]}"},
          new String[] {"{\"model\":\"m", "\"}"},
          new String[] {"{\"tools\":[{\"name\":\"", "\"}],\"model\":\"m\"}"},
          new String[] {"{\"k", "\":1}"},
          new String[] {"{\"a\":1,\"", "\":2}"});

  static Stream<Arguments> invalid() {
    return Stream.of(
            "C0 AF", // overlong '/'
            "C0 80", // overlong NUL
            "C1 BF",
            "E0 80 AF", // overlong '/'
            "E0 9F BF",
            "F0 80 80 AF",
            "F0 8F BF BF",
            "F5 80 80 80", // lead bytes that would go past U+10FFFF
            "F7 BF BF BF",
            "F8 88 80 80 80",
            "FE",
            "FF",
            "ED A0 80", // surrogates
            "ED BF BF",
            "ED A0 BD ED B8 80", // a surrogate pair in CESU-8
            "F4 90 80 80", // U+110000
            "80", // lone continuations
            "BF",
            "C3", // truncated
            "E2 82",
            "F0 9F 98",
            "C3 28",
            "E2 28 A1",
            "F0 9F 28 80")
        .map(hex -> Arguments.of(hex, HexFormat.ofDelimiter(" ").parseHex(hex.toLowerCase())));
  }

  static Stream<Arguments> valid() {
    return Stream.of(
            "C2 80",
            "DF BF",
            "E0 A0 80",
            "ED 9F BF",
            "EE 80 80",
            "EF BF BF",
            "F0 90 80 80",
            "F4 8F BF BF",
            "C3 A9 E6 97 A5 F0 9F 98 80")
        .map(hex -> Arguments.of(hex, HexFormat.ofDelimiter(" ").parseHex(hex.toLowerCase())));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void rejectsIllFormedSequencesAtEveryChunkBoundary(String hex, byte[] sequence) {
    for (String[] place : PLACES) {
      byte[] body = body(place, sequence);
      for (List<byte[]> chunks : splits(body)) {
        RequestRejectedException e =
            catchThrowableOfType(RequestRejectedException.class, () -> parse(chunks));
        assertThat(e).as("%s in %s", hex, new String(body, UTF_8)).isNotNull();
        assertThat(e.reason())
            .as("%s: %s", hex, e.getMessage())
            .isEqualTo(RejectReason.INVALID_UTF8);
        assertThat(e.httpStatus()).isEqualTo(400);
        assertThat(e.getMessage()).startsWith("request body is not valid UTF-8 (at byte ");
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void rejectsIllFormedSequencesInDirectBuffers(String hex, byte[] sequence) {
    byte[] body = body(PLACES.get(0), sequence);
    ByteBuffer direct = ByteBuffer.allocateDirect(body.length).put(body).flip();

    RequestRejectedException e =
        catchThrowableOfType(
            RequestRejectedException.class,
            () -> PARSER.parse("/v1/chat/completions", List.of(direct)));

    assertThat(e.reason()).isEqualTo(RejectReason.INVALID_UTF8);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void rejectsASequenceTheBodyEndsIn(String hex, byte[] sequence) {
    byte[] body = body(new String[] {"{\"model\":\"m\"} ", ""}, sequence);
    for (List<byte[]> chunks : splits(body)) {
      RequestRejectedException e =
          catchThrowableOfType(RequestRejectedException.class, () -> parse(chunks));
      assertThat(e).as(hex).isNotNull();
      assertThat(e.httpStatus()).isEqualTo(400);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valid")
  void acceptsWellFormedSequencesAtEveryChunkBoundary(String hex, byte[] sequence) {
    String expected = "m" + new String(sequence, UTF_8);
    byte[] body = body(PLACES.get(1), sequence);
    for (List<byte[]> chunks : splits(body)) {
      assertThat(parse(chunks).model()).as(hex).isEqualTo(expected);
    }
  }

  private static ParsedRequest parse(List<byte[]> chunks) {
    try (BodyAccumulator acc = PARSER.start("/v1/chat/completions")) {
      for (byte[] chunk : chunks) {
        acc.feed(chunk);
      }
      return acc.finish();
    }
  }

  private static byte[] body(String[] place, byte[] sequence) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(place[0].getBytes(UTF_8));
    out.writeBytes(sequence);
    out.writeBytes(place[1].getBytes(UTF_8));
    return out.toByteArray();
  }

  /** The body whole, one byte a chunk, and cut in two at every position. */
  static List<List<byte[]>> splits(byte[] body) {
    List<List<byte[]>> splits = new ArrayList<>();
    splits.add(List.of(body));
    List<byte[]> bytes = new ArrayList<>();
    for (byte b : body) {
      bytes.add(new byte[] {b});
    }
    splits.add(bytes);
    for (int cut = 1; cut < body.length; cut++) {
      byte[] head = new byte[cut];
      byte[] tail = new byte[body.length - cut];
      System.arraycopy(body, 0, head, 0, cut);
      System.arraycopy(body, cut, tail, 0, tail.length);
      splits.add(List.of(head, tail));
    }
    return splits;
  }
}
