package dev.pointsman.gateway.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.gateway.http.HeaderMutation.Action;
import java.util.List;
import org.junit.jupiter.api.Test;

class HeaderMutationTest {

  private static HeaderList request() {
    return new HeaderList()
        .add(":authority", "gw")
        .add(":path", "/v1/chat/completions")
        .add(":method", "POST")
        .add("x-a", "1")
        .add("x-a", "2");
  }

  @Test
  void appliesRemovalsThenSetsWithEachAppendAction() {
    HeaderList h = request().add("x-gone", "x");
    new HeaderMutation(
            List.of(
                new HeaderMutation.Set(
                    "X-Gateway-Destination-Endpoint",
                    "10.0.0.1:8000",
                    Action.OVERWRITE_IF_EXISTS_OR_ADD),
                new HeaderMutation.Set("x-a", "3", Action.OVERWRITE_IF_EXISTS_OR_ADD),
                new HeaderMutation.Set("x-b", "4", Action.APPEND_IF_EXISTS_OR_ADD),
                new HeaderMutation.Set("x-b", "5", Action.APPEND_IF_EXISTS_OR_ADD),
                new HeaderMutation.Set("x-c", "6", Action.OVERWRITE_IF_EXISTS),
                new HeaderMutation.Set("x-gone", "7", Action.ADD_IF_ABSENT)),
            List.of("x-gone"))
        .applyTo(h);

    assertThat(h.get("x-gateway-destination-endpoint")).isEqualTo("10.0.0.1:8000");
    assertThat(h.entries().stream().filter(e -> e.getKey().equals("x-a")))
        .extracting(java.util.Map.Entry::getValue)
        .containsExactly("3");
    assertThat(h.entries().stream().filter(e -> e.getKey().equals("x-b")))
        .extracting(java.util.Map.Entry::getValue)
        .containsExactly("4", "5");
    assertThat(h.contains("x-c")).isFalse();
    assertThat(h.get("x-gone")).isEqualTo("7");
  }

  @Test
  void routingPseudoHeadersAndEnvoyHeadersAreNotMutable() {
    HeaderList h = request();
    new HeaderMutation(
            List.of(
                new HeaderMutation.Set(":authority", "evil", Action.OVERWRITE_IF_EXISTS_OR_ADD),
                new HeaderMutation.Set(":method", "GET", Action.OVERWRITE_IF_EXISTS_OR_ADD),
                new HeaderMutation.Set("x-envoy-x", "1", Action.OVERWRITE_IF_EXISTS_OR_ADD),
                new HeaderMutation.Set(":path", "/v2", Action.OVERWRITE_IF_EXISTS_OR_ADD)),
            List.of(":path"))
        .applyTo(h);

    assertThat(h.get(":authority")).isEqualTo("gw");
    assertThat(h.get(":method")).isEqualTo("POST");
    assertThat(h.contains("x-envoy-x")).isFalse();
    assertThat(h.get(":path")).isEqualTo("/v2");
  }
}
