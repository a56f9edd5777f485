package dev.pointsman.inference.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class CorpusTest {
  private final RequestParser parser = RequestParser.withDefaults();

  static byte[] corpus(String name) {
    try (InputStream in = CorpusTest.class.getResourceAsStream("/corpus/" + name)) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private ParsedRequest parse(String path, String name) {
    return parser.parse(path, corpus(name));
  }

  @Test
  void chatWithToolCallsKeepsAllMessageContentsInOrder() {
    ParsedRequest r = parse("/v1/chat/completions", "chat_tools.json");

    String expected =
        "You are a helpful assistant with access to weather tools.\n"
            + "What's the weather in Paris and Berlin?\n18C, cloudy\n15C, rain";
    assertThat(r.kind()).isEqualTo(ApiKind.CHAT);
    assertThat(r.model()).isEqualTo("llama-3.1-8b-instruct");
    assertThat(r.stream()).isFalse();
    assertThat(r.promptPrefix()).isEqualTo(expected);
    assertThat(r.promptChars()).isEqualTo(expected.length());
    assertThat(r.estimatedPromptTokens()).isEqualTo((expected.length() + 3) / 4);
    assertThat(r.maxOutputTokens()).isEqualTo(OptionalInt.of(256));
  }

  @Test
  void imagePartsAreSkipped() {
    ParsedRequest r = parse("/v1/chat/completions", "chat_image.json");

    assertThat(r.model()).isEqualTo("qwen2.5-vl-7b");
    assertThat(r.promptPrefix()).isEqualTo("Describe this picture.\nBe brief.");
    assertThat(r.estimatedPromptTokens()).isEqualTo(8);
    assertThat(r.maxOutputTokens()).isEqualTo(OptionalInt.of(100));
  }

  @Test
  void streamOptions() {
    ParsedRequest r = parse("/v1/chat/completions", "chat_stream.json");

    assertThat(r.stream()).isTrue();
    assertThat(r.includeUsage()).isTrue();
    assertThat(r.promptPrefix()).isEqualTo("Answer in French.\nHello!");
    assertThat(r.maxOutputTokens()).isEmpty();
  }

  @Test
  void completionsPromptStringAndArray() {
    ParsedRequest one = parse("/v1/completions", "completions_prompt_string.json");
    ParsedRequest two = parse("/v1/completions", "completions_prompt_array.json");

    assertThat(one.kind()).isEqualTo(ApiKind.COMPLETIONS);
    assertThat(one.promptPrefix()).isEqualTo("Once upon a time");
    assertThat(one.estimatedPromptTokens()).isEqualTo(4);
    assertThat(one.maxOutputTokens()).isEqualTo(OptionalInt.of(16));
    assertThat(two.model()).isEqualTo("gpt2");
    assertThat(two.promptPrefix()).isEqualTo("The capital of France is\nThe capital of Spain is");
  }

  @Test
  void tokenArraysAreCountedExactly() {
    ParsedRequest r = parse("/v1/completions", "completions_tokens.json");

    assertThat(r.promptPrefix()).isEmpty();
    assertThat(r.promptChars()).isZero();
    assertThat(r.estimatedPromptTokens()).isEqualTo(7);
  }

  @Test
  void embeddingsInputArray() {
    ParsedRequest r = parse("/v1/embeddings", "embeddings_input_array.json");

    assertThat(r.kind()).isEqualTo(ApiKind.EMBEDDINGS);
    assertThat(r.model()).isEqualTo("bge-m3");
    assertThat(r.promptPrefix()).isEqualTo("first document to embed\nsecond document");
  }

  @Test
  void responsesInstructionsGoFirstEvenWhenSentLast() {
    ParsedRequest r = parse("/v1/responses", "responses_instructions.json");

    assertThat(r.kind()).isEqualTo(ApiKind.RESPONSES);
    assertThat(r.promptPrefix())
        .isEqualTo(
            "You are a vision assistant.\nWhat is in this image?\nA cat.\nWhat colour is it?");
    assertThat(r.maxOutputTokens()).isEqualTo(OptionalInt.of(300));
  }

  @Test
  void modelNotFirstAndNestedModelKeysIgnored() {
    ParsedRequest r = parse("/v1/chat/completions", "chat_model_not_first.json");

    assertThat(r.model()).isEqualTo("mistral-7b");
    assertThat(r.promptPrefix()).isEqualTo("Hi there");
    assertThat(r.stream()).isFalse();
  }

  @Test
  void escapesAndUnicode() {
    ParsedRequest r = parse("/v1/chat/completions", "chat_unicode_escapes.json");

    String expected = "café \uD83D\uDE00 \"quoted\"\ttab\nline \\ slash / 日本語";
    assertThat(r.promptPrefix()).isEqualTo(expected);
    assertThat(r.promptChars()).isEqualTo(expected.length());
  }

  @Test
  void modelAfterAHugeMessagesArrayWithPrefixBounded() {
    ParsedRequest r = parse("/v1/chat/completions", "chat_model_after_huge_messages.json");

    assertThat(r.model()).isEqualTo("llama-3.1-70b-instruct");
    assertThat(r.stream()).isTrue();
    assertThat(r.promptChars()).isEqualTo(329_199);
    assertThat(r.promptPrefix()).hasSize(ParserLimits.DEFAULT_MAX_PREFIX_CHARS);
    assertThat(r.promptPrefix()).startsWith("message 000 lorem ipsum");
    assertThat(r.estimatedPromptTokens()).isEqualTo((329_199 + 3) / 4);
  }

  @Test
  void hugeBodyFedInEnvoySizedChunksMatchesWhole() {
    byte[] body = corpus("chat_model_after_huge_messages.json");
    List<ByteBuffer> chunks = new ArrayList<>();
    for (int i = 0; i < body.length; i += 62_000) {
      chunks.add(ByteBuffer.wrap(body, i, Math.min(62_000, body.length - i)).slice());
    }

    assertThat(parser.parse("/v1/chat/completions", chunks))
        .isEqualTo(parser.parse("/v1/chat/completions", body));
  }

  @Test
  void smallPrefixLimitTruncatesButCountsEverything() {
    RequestParser small = new RequestParser(new ParserLimits(1 << 20, 10, 64));

    ParsedRequest r = small.parse("/v1/responses", corpus("responses_instructions.json"));

    assertThat(r.promptPrefix()).isEqualTo("You are a ");
    assertThat(r.promptChars()).isEqualTo(76);
  }
}
