package dev.pointsman.inference.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class InferencePathsTest {
  private final InferencePaths paths = InferencePaths.DEFAULTS;

  @ParameterizedTest
  @ValueSource(
      strings = {"/v1/chat/completions", "/v1/completions", "/v1/embeddings", "/v1/responses"})
  void routesTheInferenceApiByPost(String path) {
    assertThat(paths.decideStrict("POST", path)).isEqualTo(new PathDecision.Routed(path));
    assertThat(paths.decideStrict("GET", path)).isInstanceOf(PathDecision.Refused.class);
  }

  @Test
  void answersTheModelListingItself() {
    assertThat(paths.decideStrict("GET", "/v1/models"))
        .isEqualTo(new PathDecision.ModelList(false));
    assertThat(paths.decideStrict("HEAD", "/v1/models"))
        .isEqualTo(new PathDecision.ModelList(true));
    assertThat(paths.decideStrict("GET", "/v1/models/meta-llama/Llama-3.1-8B"))
        .isEqualTo(new PathDecision.ModelRetrieve("meta-llama/Llama-3.1-8B", false));
    assertThat(paths.decideStrict("HEAD", "/v1/models/a%40b+c"))
        .isEqualTo(new PathDecision.ModelRetrieve("a@b+c", true));
    assertThat(paths.decideStrict("POST", "/v1/models")).isInstanceOf(PathDecision.Refused.class);
    assertThat(paths.decideStrict("GET", "/v1/models/")).isInstanceOf(PathDecision.Refused.class);
  }

  @ParameterizedTest
  @CsvSource({
    "/v1/load_lora_adapter, 404",
    "/v1/unload_lora_adapter, 404",
    "/admin/faults, 404",
    "/metrics, 404",
    "/health, 404",
    "/v1/chat/completions/, 404",
    "/V1/chat/completions, 404",
    "/v1/../admin/faults, 404",
    "/v1/%2e%2e/admin/faults, 404",
    "//v1/load_lora_adapter, 404",
    "/v1/chat/completions/../../metrics, 404",
    "/v1/./chat/completions, 404",
    "/v1/%63hat/completions, 404",
    "/v1\\chat\\completions, 404",
    "/v1/chat%2Fcompletions, 400",
    "/v1/completions/..%2f..%2fadmin/faults, 400",
    "/v1%5Cchat%5Ccompletions, 400",
  })
  void refusesEverythingElse(String path, int status) {
    PathDecision d = paths.decideStrict("POST", path);

    assertThat(d).isInstanceOf(PathDecision.Refused.class);
    PathDecision.Refused r = (PathDecision.Refused) d;
    assertThat(r.error().httpStatus()).isEqualTo(status);
    assertThat(r.error().code()).isEqualTo(status == 404 ? "unknown_path" : "invalid_path");
    assertThat(r.error().type())
        .isEqualTo(status == 404 ? "not_found_error" : "invalid_request_error");
    assertThat(r.reason()).isEqualTo(r.error().code());
  }

  @Test
  void anOperatorCanAddPaths() {
    InferencePaths more =
        InferencePaths.of(List.of("/v1/chat/completions", "/v1/rerank", "/v1/score"));

    assertThat(more.decideStrict("POST", "/v1/rerank")).isInstanceOf(PathDecision.Routed.class);
    assertThat(more.decideStrict("POST", "/v1/completions"))
        .isInstanceOf(PathDecision.Refused.class);
    assertThat(InferencePaths.of(null)).isEqualTo(InferencePaths.DEFAULTS);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "v1/rerank | routedPaths[0]: 'v1/rerank' (expected a path like",
        "/v1/../admin | routedPaths[0]: '/v1/../admin' (expected a path in normal form",
        "/v1//rerank | routedPaths[0]: '/v1//rerank' (expected a path in normal form",
        "/v1/rerank/ | routedPaths[0]: '/v1/rerank/' (expected a path in normal form",
        "/v1/r%65rank | routedPaths[0]: '/v1/r%65rank' (expected a path like",
        "/v1/models | routedPaths[0]: '/v1/models' (the model listing",
        "/v1/models/x | routedPaths[0]: '/v1/models/x' (the model listing",
      })
  void aBadPathIsAConfigErrorNamingIt(String path, String message) {
    assertThatThrownBy(() -> InferencePaths.of(List.of(path)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(message);
  }

  @Test
  void emptyAndDuplicateListsAreConfigErrors() {
    assertThatThrownBy(() -> InferencePaths.of(List.of()))
        .hasMessage("routedPaths: [] (expected at least one path)");
    assertThatThrownBy(() -> InferencePaths.of(List.of("/v1/rerank", "/v1/rerank")))
        .hasMessage("routedPaths[1]: '/v1/rerank' (listed twice)");
  }
}
