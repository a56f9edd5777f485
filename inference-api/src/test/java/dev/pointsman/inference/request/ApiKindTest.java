package dev.pointsman.inference.request;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ApiKindTest {
  @ParameterizedTest
  @CsvSource({
    "/v1/chat/completions, CHAT",
    "/v1/chat/completions?x=1, CHAT",
    "/v1/chat/completions/, CHAT",
    "/v1/completions, COMPLETIONS",
    "/v1/embeddings, EMBEDDINGS",
    "/v1/responses, RESPONSES",
    "/v1/models, OTHER",
    "/v1/chat/completionsX, OTHER",
    "/, OTHER",
    "'', OTHER"
  })
  void fromPath(String path, ApiKind kind) {
    assertThat(ApiKind.fromPath(path)).isEqualTo(kind);
  }
}
