package dev.pointsman.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.pointsman.inference.request.BodyAccumulator;
import dev.pointsman.inference.request.ParsedRequest;
import dev.pointsman.inference.request.RequestParser;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ModelRewriteTest {

  private static ParsedRequest parse(String json, int chunk) {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    try (BodyAccumulator acc = RequestParser.withDefaults().start("/v1/chat/completions")) {
      for (int at = 0; at < bytes.length; at += chunk) {
        acc.feed(bytes, at, Math.min(chunk, bytes.length - at));
      }
      return acc.finish();
    }
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"model\":\"llama\",\"stream\":true} | big \"m\" | {\"model\":\"big \\\"m\\\"\",\"stream\":true}",
        "{\"stream\":true, \"model\" : \"llama\" } | meta/Llama-3 | {\"stream\":true, \"model\" : \"meta/Llama-3\" }",
        "{\"stream\":true} | m | {\"model\":\"m\",\"stream\":true}",
        "' { }' | m | ' {\"model\":\"m\" }'",
        "{\"model\":\"caf\\u00e9\",\"x\":1} | m | {\"model\":\"m\",\"x\":1}",
        "{\"model\":\"same\"} | same | {\"model\":\"same\"}",
      })
  void rewritesOnlyTheModelValue(String body, String model, String expected) {
    for (int chunk : new int[] {1, 3, 7, 1 << 20}) {
      ParsedRequest parsed = parse(body, chunk);
      ByteString out = ModelRewrite.apply(ByteString.copyFromUtf8(body), parsed, model);
      assertThat(out.toStringUtf8()).as("chunk %d", chunk).isEqualTo(expected);
      assertThat(parse(out.toStringUtf8(), 1 << 20).model()).isEqualTo(model);
    }
  }

  @ParameterizedTest
  @CsvSource({"é-model", "日本語"})
  void multiByteModelsKeepOffsetsInBytes(String before) {
    String body =
        "{\"messages\":[{\"role\":\"user\",\"content\":\"héllo\"}],\"model\":\"" + before + "\"}";
    ParsedRequest parsed = parse(body, 5);
    ByteString out = ModelRewrite.apply(ByteString.copyFromUtf8(body), parsed, "canonical");
    assertThat(out.toStringUtf8())
        .isEqualTo(
            "{\"messages\":[{\"role\":\"user\",\"content\":\"héllo\"}],\"model\":\"canonical\"}");
  }
}
