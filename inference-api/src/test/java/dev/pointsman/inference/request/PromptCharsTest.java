package dev.pointsman.inference.request;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The kept prompt as routing reads it: the parser's characters, compared and hashed by content. */
class PromptCharsTest {
  private final RequestParser parser = RequestParser.withDefaults();

  @Test
  void equalByContentAndHashedAsTheSameString() {
    StringBuilder built = new StringBuilder("héllo, 世界 ").append("🙂");
    PromptChars a = PromptChars.of(built);
    PromptChars b = PromptChars.of(built.toString());

    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
    assertThat(a.hashCode()).isEqualTo(built.toString().hashCode());
    assertThat(a).hasToString(built.toString());
    assertThat(a).isNotEqualTo(PromptChars.of("héllo"));
    assertThat(PromptChars.of("")).isSameAs(PromptChars.EMPTY);
    assertThat(PromptChars.of(a)).isSameAs(a);
  }

  @Test
  void readByIndexAndRangeInEitherWidth() {
    for (String t : new String[] {"plain ascii text", "café \u00ff ñ x", "a ’ 世界 🙂 z"}) {
      PromptChars p = PromptChars.of(t);
      for (int i = 0; i < t.length(); i++) {
        assertThat(p.charAt(i)).isEqualTo(t.charAt(i));
      }
      assertThatThrownBy(() -> p.charAt(t.length())).isInstanceOf(IndexOutOfBoundsException.class);
      assertThatThrownBy(() -> p.charAt(-1)).isInstanceOf(IndexOutOfBoundsException.class);
      assertThat(p.subSequence(2, 7)).hasToString(t.substring(2, 7));
      assertThat(p).isEqualTo(PromptChars.of(new StringBuilder(t))).hasToString(t);
    }
  }

  @Test
  void aPromptTurningWideMidwayKeepsWhatCameBefore() {
    // ASCII is kept a byte a character until the first character past U+00FF; from there on,
    // two bytes each, with everything before carried over, across segments and the bound
    PromptText text = new PromptText(40);
    byte[] ascii = "0123456789abcdefghij".getBytes(UTF_8);
    text.beginSegment();
    text.putAscii(ascii, 0, 10);
    text.write("é".toCharArray(), 0, 1);
    text.beginSegment();
    text.putAscii(ascii, 10, 5);
    text.write("世界".toCharArray(), 0, 2);
    text.putAscii(ascii, 0, Math.min(20, text.room()));
    text.write("never kept", 0, 10);

    String expected = "0123456789é\nabcde世界" + "0123456789abcdefghij" + "n";
    assertThat(text.kept()).hasToString(expected).isEqualTo(PromptChars.of(expected));
    assertThat(text.kept().hashCode()).isEqualTo(expected.hashCode());
    assertThat(text.room()).isZero();
  }

  @Test
  void aParsedPromptReadsLikeItsStringWholeOrInChunks() {
    String text = "línea uno\\nline two \\u4e16\\u754c " + "x".repeat(70_000);
    String body = "{\"model\":\"m\",\"prompt\":\"" + text + "\"}";
    byte[] bytes = body.getBytes(UTF_8);
    List<ByteBuffer> chunks = new ArrayList<>();
    for (int at = 0; at < bytes.length; at += 62_000) {
      chunks.add(ByteBuffer.wrap(bytes, at, Math.min(62_000, bytes.length - at)).slice());
    }

    ParsedRequest whole = parser.parse("/v1/completions", bytes);
    ParsedRequest chunked = parser.parse("/v1/completions", chunks);

    assertThat(whole.prompt()).hasToString(whole.promptPrefix());
    assertThat(whole.promptPrefix()).startsWith("línea uno\nline two 世界 xxx");
    assertThat(whole.prompt().length()).isEqualTo(whole.promptPrefix().length());
    assertThat(chunked).isEqualTo(whole);
  }
}
