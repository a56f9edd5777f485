package dev.pointsman.bench.routing.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.scheduling.AdapterListing;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GieLoraAffinityTest {

  private static EndpointMetrics metrics(Set<String> running, Set<String> waiting, int maxLoras) {
    return new EndpointMetrics(
        0, 0, 0.1, 1000, running, waiting, maxLoras, Double.NaN, 0, AdapterListing.UNKNOWN);
  }

  @Test
  void scoresAsTheInferenceExtensionsScorerDoes() {
    // running adapters, waiting adapters, slots, expected score for adapter "a"
    Object[][] cases = {
      {Set.of("a"), Set.of(), 2, 1.0}, // active
      {Set.of("a", "b"), Set.of("c"), 2, 1.0}, // active even with every slot taken
      {Set.of("b"), Set.of(), 2, 0.8}, // a free slot
      {Set.of(), Set.of(), 1, 0.8},
      {Set.of("b"), Set.of("a"), 2, 0.6}, // waiting, no free slot
      {Set.of("b", "c"), Set.of(), 2, 0.0}, // no room
      {Set.of(), Set.of(), -1, 0.0}, // the engine does not say: no slot is assumed
    };
    for (Object[] c : cases) {
      @SuppressWarnings("unchecked")
      EndpointMetrics m = metrics((Set<String>) c[0], (Set<String>) c[1], (int) c[2]);
      assertThat(GieLoraAffinity.score("a", m)).as("%s %s %s", c[0], c[1], c[2]).isEqualTo(c[3]);
    }
  }
}
