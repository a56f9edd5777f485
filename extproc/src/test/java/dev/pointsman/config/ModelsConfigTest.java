package dev.pointsman.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.inference.model.ModelEntry;
import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.inference.model.ModelsConfig;
import dev.pointsman.inference.model.PoolTarget;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ModelsConfigTest {
  private static final String YAML =
      """
      defaultModel: llama
      models:
        - name: llama-3.1-8b
          aliases: [llama]
          pools:
            - pool: gpu-a
              weight: 9
            - pool: gpu-b-canary
              weight: 1
        - name: sql-lora
          baseModel: llama-3.1-8b
        - name: qwen
          pools: [{pool: gpu-c}]
      """;

  @Test
  void readsYaml() {
    ModelsConfig config = read(YAML);

    assertThat(config.defaultModel()).isEqualTo("llama");
    assertThat(config.models()).hasSize(3);
    assertThat(config.models().get(0).pools())
        .containsExactly(new PoolTarget("gpu-a", 9), new PoolTarget("gpu-b-canary", 1));
    assertThat(config.models().get(1).isAdapter()).isTrue();
    assertThat(config.models().get(2).pools()).containsExactly(PoolTarget.of("gpu-c"));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "weight: 9 | weight: -1 | models[0].pools[0].weight: -1 (expected > 0)",
        "pool: gpu-c | pool: '' | models[2].pools[0].pool: \"\" (expected a pool name)",
        "baseModel: llama-3.1-8b | baseModel: nope"
            + " | models[1].baseModel: \"nope\" (expected the name of a base model in models)",
        "defaultModel: llama | defaultModel: gpt"
            + " | defaultModel: \"gpt\" (expected a name or alias in models)",
        "name: qwen | name: llama" + " | models[2].name: \"llama\" (already used by models[0])",
        "pools: [{pool: gpu-c}] | pools: []"
            + " | models[2].pools: [] (expected at least one pool for a base model)",
        "weight: 9 | wieght: 9 | models[0].pools[0].wieght: unknown property",
      })
  void errorsNameThePath(String from, String to, String message) {
    String yaml = YAML.replaceFirst(java.util.regex.Pattern.quote(from), to);

    assertThatThrownBy(() -> read(yaml))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(message);
  }

  @Test
  void duplicatePoolsAndAliasesAreRejected() {
    assertThatThrownBy(() -> ModelEntry.base("m", List.of(PoolTarget.of("a"), PoolTarget.of("a"))))
        .hasMessage("pools[1].pool: \"a\" (listed twice)");
    assertThatThrownBy(
            () -> new ModelEntry("m", List.of("x", "x"), null, List.of(PoolTarget.of("a"))))
        .hasMessage("aliases[1]: \"x\" (expected a distinct non-empty name)");
  }

  @Test
  void invalidYamlIsReported() {
    assertThatThrownBy(() -> read("models: \"unterminated"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("not valid YAML");
  }

  @org.junit.jupiter.api.Test
  void sheddabilityIsPerModelAndAdaptersInheritIt() {
    ModelResolver r =
        ModelResolver.of(
            read(
                """
                models:
                  - {name: batch-llama, pools: [{pool: a}], sheddable: true}
                  - {name: batch-lora, baseModel: batch-llama}
                  - {name: chat-lora, baseModel: batch-llama, sheddable: false}
                  - {name: chat-llama, pools: [{pool: a}]}
                """));
    org.assertj.core.api.Assertions.assertThat(r.resolve("batch-llama").sheddable()).isTrue();
    org.assertj.core.api.Assertions.assertThat(r.resolve("batch-lora").sheddable()).isTrue();
    org.assertj.core.api.Assertions.assertThat(r.resolve("chat-lora").sheddable()).isFalse();
    org.assertj.core.api.Assertions.assertThat(r.resolve("chat-llama").sheddable()).isFalse();
  }

  private static ModelsConfig read(String yaml) {
    return Yaml.read(yaml, ModelsConfig.class, null);
  }
}
