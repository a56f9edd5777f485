package dev.pointsman.extproc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import dev.pointsman.inference.error.RejectReason;
import dev.pointsman.inference.error.RequestRejectedException;
import dev.pointsman.inference.request.BodyAccumulator;
import dev.pointsman.inference.request.ParsedRequest;
import dev.pointsman.inference.request.ParserLimits;
import dev.pointsman.inference.request.RequestParser;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class BodyFeedTest {
  private static final String PATH = "/v1/chat/completions";
  private static final RequestParser PARSER = RequestParser.withDefaults();
  private static final byte[] BODY =
      ("{\"model\":\"llama\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":"
              + "\"h\\u00e9llo \u65e5\u672c \uD83D\uDE00 "
              + "x".repeat(5000)
              + "\"}]}")
          .getBytes(UTF_8);

  /** Every shape a ByteString can have, each holding the bytes given. */
  static Stream<Function<byte[], ByteString>> shapes() {
    return Stream.of(
        ByteString::copyFrom, // flat, as gRPC parses an HttpBody
        b -> ByteString.copyFrom(concat(new byte[3], b)).substring(3), // bounded (offset)
        b ->
            ByteString.copyFrom(b, 0, b.length / 2)
                .concat(ByteString.copyFrom(b, b.length / 2, b.length - b.length / 2)), // rope
        b -> UnsafeByteOperations.unsafeWrap(ByteBuffer.wrap(b)), // NIO, heap
        b -> {
          ByteBuffer direct = ByteBuffer.allocateDirect(b.length).put(b).flip();
          return UnsafeByteOperations.unsafeWrap(direct); // NIO, direct
        });
  }

  @ParameterizedTest
  @MethodSource("shapes")
  void everyShapeParsesAsTheBytesDo(Function<byte[], ByteString> shape) {
    ParsedRequest expected = PARSER.parse(PATH, BODY);

    for (int cut : List.of(0, 1, 17, BODY.length / 2, BODY.length - 1, BODY.length)) {
      BodyAccumulator body = PARSER.start(PATH);
      BodyFeed feed = new BodyFeed(body);
      ByteString first = shape.apply(java.util.Arrays.copyOfRange(BODY, 0, cut));
      ByteString second = shape.apply(java.util.Arrays.copyOfRange(BODY, cut, BODY.length));
      feed.feed(first);
      feed.feed(second);

      assertThat(body.finish()).as("cut at %d", cut).isEqualTo(expected);
      assertThat(body.bytesFed()).isEqualTo(BODY.length);
      assertThat(first.concat(second).toByteArray()).as("the chunks are unchanged").isEqualTo(BODY);
    }
  }

  @Test
  void anEmptyChunkIsAcceptedAndCounted() {
    BodyAccumulator body = PARSER.start(PATH);
    BodyFeed feed = new BodyFeed(body);
    feed.feed(ByteString.EMPTY);
    feed.feed(ByteString.copyFrom(BODY));
    feed.feed(ByteString.EMPTY);

    assertThat(body.finish()).isEqualTo(PARSER.parse(PATH, BODY));
  }

  @ParameterizedTest
  @MethodSource("shapes")
  void aChunkOverTheLimitIsRefusedBeforeAnyOfItIsRead(Function<byte[], ByteString> shape) {
    // given a chunk that is both over the limit and not JSON: the size is checked first
    RequestParser small = new RequestParser(new ParserLimits(64, 1024, 16));
    BodyAccumulator body = small.start(PATH);
    byte[] bad = ("not json at all " + "y".repeat(100)).getBytes(UTF_8);

    RequestRejectedException e =
        catchThrowableOfType(
            RequestRejectedException.class, () -> new BodyFeed(body).feed(shape.apply(bad)));

    assertThat(e).isNotNull();
    assertThat(e.reason()).isEqualTo(RejectReason.TOO_LARGE);
  }

  @Test
  void aSyntaxErrorIsRejectedAsFromBytes() {
    byte[] bad = "{\"model\":\"m\",,}".getBytes(UTF_8);
    BodyAccumulator fromBytes = PARSER.start(PATH);
    RequestRejectedException expected =
        catchThrowableOfType(
            RequestRejectedException.class,
            () -> {
              fromBytes.feed(bad);
              fromBytes.finish();
            });
    BodyAccumulator body = PARSER.start(PATH);

    RequestRejectedException e =
        catchThrowableOfType(
            RequestRejectedException.class,
            () -> {
              new BodyFeed(body).feed(ByteString.copyFrom(bad));
              body.finish();
            });

    assertThat(e.reason()).isEqualTo(expected.reason());
    assertThat(e.getMessage()).isEqualTo(expected.getMessage());
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
