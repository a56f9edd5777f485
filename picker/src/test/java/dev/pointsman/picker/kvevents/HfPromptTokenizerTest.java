package dev.pointsman.picker.kvevents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.EndpointState;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import dev.pointsman.picker.scheduling.SpeedProfile;
import dev.pointsman.picker.scheduling.prefix.PrecisePrefix;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * DJL's Hugging Face tokenizer binding, offline, on a small word-level {@code tokenizer.json}
 * written for the test (vocabulary: [UNK] hello world system prompt).
 */
class HfPromptTokenizerTest {

  private static Path file() throws URISyntaxException {
    return Path.of(
        HfPromptTokenizerTest.class.getResource("/kvevents/word-tokenizer.json").toURI());
  }

  private static SchedulingRequest request(String prompt) {
    return new SchedulingRequest("r", "llama", null, prompt, 10, -1, false, null);
  }

  @Test
  void tokenizesWithTheModelsOwnVocabulary() throws Exception {
    try (HfPromptTokenizer t = HfPromptTokenizer.open(file())) {
      assertThat(t.tokenize(request("hello world system foo prompt")))
          .containsExactly(1, 2, 3, 0, 4);
      assertThat(t.tokenize(request(""))).isNull();
    }
  }

  @Test
  void aRequestMatchesTheBlocksAnEngineReportedForTheSameTokens() throws Exception {
    KvBlockIndex index = new KvBlockIndex(100);
    index.apply(
        "10.0.0.1:8000",
        List.of(
            new KvEvent.BlockStored(
                new long[] {7, 8}, null, new int[] {1, 2, 3, 4}, 2, null, "GPU")));
    Endpoint e = new Endpoint("10.0.0.1:8000", "llama");
    Candidate c =
        new Candidate(
            new EndpointState(
                e, new EndpointMetrics(0, 0, 0.1, -1, Set.of(), Set.of(), 4, Double.NaN, 0L), true),
            InFlightTracker.Load.NONE,
            SpeedProfile.of(e));
    try (HfPromptTokenizer t = HfPromptTokenizer.open(file())) {
      PrecisePrefix.Match m =
          new EnginePrefix(index, t).match(request("hello world system world"), List.of(c));

      assertThat(m.blocks()).containsExactly(1); // [hello world] held, [system world] not
      assertThat(m.promptBlocks()).isEqualTo(2);
      assertThat(m.blockSize()).isEqualTo(2);
    }
  }

  @Test
  void aMissingOrBadFileIsAClearError(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    assertThatThrownBy(() -> HfPromptTokenizer.open(dir.resolve("none.json")))
        .hasMessageContaining("expected a readable tokenizer.json file");
    Path bad = java.nio.file.Files.writeString(dir.resolve("bad.json"), "{\"not\": 1}");
    assertThatThrownBy(() -> HfPromptTokenizer.open(bad))
        .hasMessageContaining("not a tokenizer.json");
  }
}
