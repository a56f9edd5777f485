package dev.pointsman.inference.request;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.inference.error.RejectReason;
import dev.pointsman.inference.error.RequestRejectedException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class BodyLimitTest {
  private static final int CHUNK = 64 << 10;
  private static final long LIMIT = 1L << 20;

  @Test
  void rejectsFiftyMegabytesHavingFedAtMostTheLimit() {
    // given a 50 MB body arriving in 64 KiB chunks and a 1 MiB limit
    RequestParser parser = new RequestParser(new ParserLimits(LIMIT, 1024, 64));
    BodyAccumulator body = parser.start("/v1/chat/completions");
    byte[] chunk = new byte[CHUNK];
    Arrays.fill(chunk, (byte) 'a');
    byte[] head = "{\"model\":\"m\",\"prompt\":\"".getBytes(UTF_8);
    byte[] first = chunk.clone();
    System.arraycopy(head, 0, first, 0, head.length);
    int chunks = 50 * (1 << 20) / CHUNK;

    // when
    int offered = 0;
    RequestRejectedException rejection = null;
    for (int i = 0; i < chunks && rejection == null; i++) {
      offered++;
      try {
        body.feed(i == 0 ? first : chunk);
      } catch (RequestRejectedException e) {
        rejection = e;
      }
    }

    // then
    assertThat(rejection).isNotNull();
    assertThat(rejection.httpStatus()).isEqualTo(413);
    assertThat(rejection.reason()).isEqualTo(RejectReason.TOO_LARGE);
    assertThat(rejection.error().code()).isEqualTo("body_too_large");
    assertThat(body.bytesFed()).isLessThanOrEqualTo(LIMIT);
    assertThat((long) offered * CHUNK).isLessThanOrEqualTo(LIMIT + CHUNK);
    assertThatThrownBy(() -> body.feed(new byte[1])).isSameAs(rejection);
    assertThatThrownBy(body::finish).isSameAs(rejection);
  }

  @Test
  void acceptsABodyOfExactlyTheLimit() {
    String json = "{\"model\":\"m\"}";
    RequestParser parser = new RequestParser(new ParserLimits(json.length(), 16, 4));

    assertThat(parser.parse("/v1/completions", json.getBytes(UTF_8)).model()).isEqualTo("m");
    assertThatThrownBy(() -> parser.parse("/v1/completions", (json + " ").getBytes(UTF_8)))
        .isInstanceOf(RequestRejectedException.class)
        .hasMessageContaining("limit of " + json.length() + " bytes");
  }

  @Test
  void directBuffersAreReadWithoutMovingTheirPosition() {
    byte[] bytes = ("{\"model\":\"m\",\"prompt\":\"" + "p".repeat(40_000) + "\"}").getBytes(UTF_8);
    ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
    BodyAccumulator body = RequestParser.withDefaults().start("/v1/completions");

    body.feed(direct);
    ParsedRequest parsed = body.finish();

    assertThat(direct.position()).isZero();
    assertThat(parsed.promptChars()).isEqualTo(40_000);
    assertThat(body.bytesFed()).isEqualTo(bytes.length);
    assertThat(body.finish()).isSameAs(parsed);
    assertThatThrownBy(() -> body.feed(new byte[1])).isInstanceOf(IllegalStateException.class);
  }
}
