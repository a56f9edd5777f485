package dev.pointsman.picker.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.inference.model.DiscoveredModels;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ListingReadTest {

  private static ListingRead read(Engine engine, String json) {
    return ListingRead.of(
        engine, DiscoveredModels.fromModelsList(json.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void vllmBeforeItsLineageFixListsAdaptersWithoutParent() {
    ListingRead r = read(Engine.VLLM, ScraperTest.vllm2024Listing());

    assertThat(r.result()).isEqualTo("no_lineage");
    assertThat(r.listing().known()).isFalse();
    assertThat(r.listing().allows("sql-lora")).isTrue();
  }

  @Test
  void vllmWithLineageListsItsAdapters() {
    // the 0.29 capture is a jq projection (an array); wrapped in the list object it came from
    String data = Resources.capture("vllm-0.29.0-lora-models-jq-projection.json").strip();
    ListingRead r = read(Engine.VLLM, "{\"object\":\"list\",\"data\":" + data + "}");

    assertThat(r.result()).isEqualTo("ok");
    assertThat(r.listing().adapters()).containsExactlyInAnyOrder("alpaca", "underdog");
    assertThat(r.listing().allows("other")).isFalse();
  }

  @Test
  void sglangListingOnlyTheBaseCannotTellAndOneWithAdaptersCan() {
    String baseOnly = "{\"object\":\"list\",\"data\":[{\"id\":\"m\",\"object\":\"model\"}]}";

    assertThat(read(Engine.SGLANG, baseOnly).result()).isEqualTo("no_lineage");
    assertThat(read(Engine.VLLM, baseOnly).result()).isEqualTo("ok");
    ListingRead withAdapters =
        read(Engine.SGLANG, Resources.capture("sglang-pr12229-models-example.json"));
    assertThat(withAdapters.result()).isEqualTo("ok");
    assertThat(withAdapters.listing().adapters()).containsExactly("sql_expert");
  }
}
