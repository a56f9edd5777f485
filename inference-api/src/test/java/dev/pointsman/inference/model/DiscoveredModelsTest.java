package dev.pointsman.inference.model;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;

class DiscoveredModelsTest {
  @Test
  void parsesAVllmModelList() {
    String body =
        """
        {"object":"list","data":[
          {"id":"meta-llama/Llama-3.1-8B-Instruct","object":"model","created":1,"owned_by":"vllm",
           "root":"/models/llama","parent":null,"max_model_len":8192,"permission":[{"id":"p"}]},
          {"id":"llama","object":"model","root":"/models/llama","parent":null},
          {"id":"sql-lora","object":"model","root":"/adapters/sql","parent":"meta-llama/Llama-3.1-8B-Instruct"}
        ]}
        """;

    DiscoveredModels models = DiscoveredModels.fromModelsList(body.getBytes(UTF_8));

    assertThat(models)
        .isEqualTo(
            new DiscoveredModels(
                "meta-llama/Llama-3.1-8B-Instruct", Set.of("llama"), Set.of("sql-lora")));
    ModelResolver resolver =
        ModelResolver.of(new ModelsConfig(null, null)).withDiscovered("pool-1", models);
    assertThat(resolver.resolve("llama").canonicalModel())
        .isEqualTo("meta-llama/Llama-3.1-8B-Instruct");
    assertThat(resolver.resolve("sql-lora").baseModel())
        .isEqualTo("meta-llama/Llama-3.1-8B-Instruct");
  }

  @Test
  void rejectsBadLists() {
    assertThatThrownBy(() -> DiscoveredModels.fromModelsList("{}".getBytes(UTF_8)))
        .hasMessageContaining("no 'data' array");
    assertThatThrownBy(() -> DiscoveredModels.fromModelsList("{\"data\":[".getBytes(UTF_8)))
        .hasMessageContaining("not valid JSON");
    assertThatThrownBy(
            () ->
                DiscoveredModels.fromModelsList(
                    "{\"data\":[{\"id\":\"a\",\"parent\":\"b\"}]}".getBytes(UTF_8)))
        .hasMessageContaining("no base model");
  }
}
