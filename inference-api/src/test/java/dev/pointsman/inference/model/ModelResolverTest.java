package dev.pointsman.inference.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pointsman.inference.error.RejectReason;
import dev.pointsman.inference.error.RequestRejectedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ModelResolverTest {
  private static final List<PoolTarget> LLAMA_POOLS =
      List.of(new PoolTarget("gpu-a", 9), new PoolTarget("gpu-b", 1));

  private final ModelsConfig config =
      new ModelsConfig(
          List.of(
              new ModelEntry("llama-3.1-8b", List.of("llama"), null, LLAMA_POOLS),
              new ModelEntry("sql-lora", List.of("sql"), "llama-3.1-8b", List.of()),
              new ModelEntry(
                  "chat-lora", List.of(), "llama-3.1-8b", List.of(PoolTarget.of("gpu-b"))),
              ModelEntry.base("qwen", List.of(PoolTarget.of("gpu-c")))),
          "llama");
  private final ModelResolver resolver = ModelResolver.of(config);

  @Test
  void aliasResolvesToCanonicalName() {
    Resolution r = resolver.resolve("llama");

    assertThat(r)
        .isEqualTo(new Resolution("llama", "llama-3.1-8b", "llama-3.1-8b", null, LLAMA_POOLS));
    assertThat(r.isAdapter()).isFalse();
  }

  @Test
  void adapterResolvesToItsBaseAndInheritsPools() {
    Resolution r = resolver.resolve("sql");

    assertThat(r.canonicalModel()).isEqualTo("sql-lora");
    assertThat(r.baseModel()).isEqualTo("llama-3.1-8b");
    assertThat(r.adapter()).isEqualTo("sql-lora");
    assertThat(r.pools()).isEqualTo(LLAMA_POOLS);
    assertThat(resolver.resolve("chat-lora").pools()).containsExactly(PoolTarget.of("gpu-b"));
  }

  @Test
  void absentModelUsesTheDefault() {
    assertThat(resolver.resolve(null).canonicalModel()).isEqualTo("llama-3.1-8b");
    assertThat(resolver.resolve(null).requestedModel()).isNull();
  }

  @Test
  void absentModelWithoutDefaultIs400() {
    ModelResolver noDefault = ModelResolver.of(new ModelsConfig(config.models(), null));

    RequestRejectedException e =
        catchThrowableOfType(RequestRejectedException.class, () -> noDefault.resolve(null));

    assertThat(e.httpStatus()).isEqualTo(400);
    assertThat(e.reason()).isEqualTo(RejectReason.MISSING_MODEL);
    assertThat(e.error().message()).isEqualTo("model is required");
    assertThat(e.error().code()).isEqualTo("missing_model");
  }

  @Test
  void unknownModelIs404ListingServedModels() throws Exception {
    RequestRejectedException e =
        catchThrowableOfType(RequestRejectedException.class, () -> resolver.resolve("gpt-4o"));

    assertThat(e.httpStatus()).isEqualTo(404);
    assertThat(e.reason().label()).isEqualTo("unknown_model");
    JsonNode error = new ObjectMapper().readTree(e.error().toJson()).get("error");
    assertThat(error.get("type").asText()).isEqualTo("not_found_error");
    assertThat(error.get("code").asText()).isEqualTo("model_not_found");
    assertThat(error.get("message").asText())
        .isEqualTo(
            "The model \"gpt-4o\" does not exist. "
                + "Served models: chat-lora, llama-3.1-8b, qwen, sql-lora");
  }

  @Test
  void unknownModelMessageIsTruncatedPastFifty() {
    List<ModelEntry> many = new ArrayList<>();
    for (int i = 0; i < 70; i++) {
      many.add(ModelEntry.base("m%03d".formatted(i), List.of(PoolTarget.of("p"))));
    }
    ModelResolver big = ModelResolver.of(new ModelsConfig(many, null));

    String message =
        catchThrowableOfType(RequestRejectedException.class, () -> big.resolve("x".repeat(500)))
            .getMessage();

    assertThat(message).contains("m049, ... (20 more)").doesNotContain("m050").hasSizeLessThan(600);
  }

  @Test
  void discoveryAddsUnconfiguredModelsAndAdapters() {
    ModelResolver merged =
        resolver
            .withDiscovered("gpu-d", "mistral-7b", Set.of("fr-lora"))
            .withDiscovered("gpu-e", "mistral-7b", Set.of())
            .withDiscovered("gpu-a", "llama", Set.of("new-lora", "sql-lora"));

    assertThat(merged.resolve("mistral-7b").pools())
        .containsExactly(PoolTarget.of("gpu-d"), PoolTarget.of("gpu-e"));
    assertThat(merged.resolve("fr-lora"))
        .isEqualTo(
            new Resolution(
                "fr-lora", "fr-lora", "mistral-7b", "fr-lora", List.of(PoolTarget.of("gpu-d"))));
    assertThat(merged.resolve("new-lora").baseModel()).isEqualTo("llama-3.1-8b");
    assertThat(merged.resolve("sql-lora").pools()).isEqualTo(LLAMA_POOLS);
    assertThat(merged.resolve("llama-3.1-8b").pools()).isEqualTo(LLAMA_POOLS);
    assertThat(resolver.servedModels()).hasSize(4);
  }

  @Test
  void rediscoveryReplacesAPoolsReport() {
    ModelResolver once = resolver.withDiscovered("gpu-d", "mistral-7b", Set.of("fr-lora"));
    ModelResolver again = once.withDiscovered("gpu-d", "mistral-7b", Set.of());

    assertThat(again.servedModels()).extracting(ServedModel::id).doesNotContain("fr-lora");
    assertThat(once.withoutPool("gpu-d").servedModels()).isEqualTo(resolver.servedModels());
  }

  @Test
  void servedModelsAndListJson() throws Exception {
    assertThat(resolver.servedModels())
        .containsExactly(
            new ServedModel("chat-lora", "pointsman", "llama-3.1-8b"),
            new ServedModel("llama-3.1-8b", "pointsman", null),
            new ServedModel("qwen", "pointsman", null),
            new ServedModel("sql-lora", "pointsman", "llama-3.1-8b"));

    JsonNode list = new ObjectMapper().readTree(resolver.modelsListJson());

    assertThat(list.get("object").asText()).isEqualTo("list");
    assertThat(list.get("data"))
        .extracting(m -> m.get("id").asText())
        .containsExactly("chat-lora", "llama", "llama-3.1-8b", "qwen", "sql", "sql-lora");
    JsonNode first = list.get("data").get(0);
    assertThat(first.get("id").asText()).isEqualTo("chat-lora");
    assertThat(first.get("object").asText()).isEqualTo("model");
    assertThat(first.get("owned_by").asText()).isEqualTo("pointsman");
    assertThat(first.get("parent").asText()).isEqualTo("llama-3.1-8b");
    assertThat(first.get("root").asText()).isEqualTo("llama-3.1-8b");
    assertThat(list.get("data").get(2).get("parent").isNull()).isTrue();
  }

  @Test
  void theListingNamesAliasesAsTheirModels() throws Exception {
    JsonNode list = new ObjectMapper().readTree(resolver.modelsListJson());
    JsonNode alias = list.get("data").get(1);
    JsonNode adapterAlias = list.get("data").get(4);

    assertThat(alias.get("id").asText()).isEqualTo("llama");
    assertThat(alias.get("root").asText()).isEqualTo("llama-3.1-8b");
    assertThat(alias.get("parent").isNull()).isTrue();
    assertThat(adapterAlias.get("id").asText()).isEqualTo("sql");
    assertThat(adapterAlias.get("parent").asText()).isEqualTo("llama-3.1-8b");
  }

  @Test
  void retrievesOneModelByIdOrAliasAndRefusesOthersWith404() throws Exception {
    JsonNode model = new ObjectMapper().readTree(resolver.modelJson("llama"));
    RequestRejectedException e =
        catchThrowableOfType(RequestRejectedException.class, () -> resolver.modelJson("gpt-4"));

    assertThat(model.get("id").asText()).isEqualTo("llama");
    assertThat(model.get("object").asText()).isEqualTo("model");
    assertThat(model.get("root").asText()).isEqualTo("llama-3.1-8b");
    assertThat(new ObjectMapper().readTree(resolver.modelJson("sql-lora")).get("parent").asText())
        .isEqualTo("llama-3.1-8b");
    assertThat(e.reason()).isEqualTo(RejectReason.UNKNOWN_MODEL);
    assertThat(e.error().httpStatus()).isEqualTo(404);
    assertThat(e.getMessage()).contains("gpt-4").contains("llama-3.1-8b");
  }
}
