package dev.pointsman.inference.request;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

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
