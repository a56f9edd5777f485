package dev.pointsman.picker.kvevents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.picker.kvevents.KvEvent.AllBlocksCleared;
import dev.pointsman.picker.kvevents.KvEvent.BlockRemoved;
import dev.pointsman.picker.kvevents.KvEvent.BlockStored;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Decodes the payloads vLLM's own encoder (msgspec) produces for each of its encodings. */
class KvEventDecoderTest {
  private final KvEventDecoder decoder = new KvEventDecoder();

  @Test
  void decodesThePositionalEncodingOfTheV09Line() throws Exception {
    EventBatch b = decoder.decode(Fixtures.payload("positional.hex"));

    assertThat(b.ts()).isEqualTo(1.5);
    assertThat(b.dataParallelRank()).isNull();
    assertThat(b.events())
        .containsExactly(
            new BlockStored(
                new long[] {11, 12}, null, new int[] {1, 2, 3, 4, 5, 6, 7, 8}, 4, null, null),
            new BlockStored(new long[] {13}, 12L, new int[] {9, 10, 11, 12}, 4, null, null),
            new BlockRemoved(new long[] {12, 13}, null),
            new AllBlocksCleared());
  }

  @Test
  void decodesTheMapEncodingWithBytesHashesOfCurrentVllm() throws Exception {
    EventBatch b = decoder.decode(Fixtures.payload("map.hex"));

    assertThat(b.ts()).isEqualTo(2.25);
    assertThat(b.dataParallelRank()).isZero();
    assertThat(b.events())
        .containsExactly(
            new BlockStored(
                new long[] {11, 12}, null, new int[] {1, 2, 3, 4, 5, 6, 7, 8}, 4, null, "GPU"),
            new BlockStored(new long[] {13}, 12L, new int[] {9, 10, 11, 12}, 4, "sql-lora", "GPU"),
            new BlockRemoved(new long[] {13}, "GPU"),
            new BlockStored(new long[] {99}, null, new int[] {7, 7, 7, 7}, 4, null, "CPU"),
            new AllBlocksCleared());
  }

  @Test
  void readsAnUnsigned64BitIntegerHashAsItsBits() throws Exception {
    EventBatch b = decoder.decode(Fixtures.payload("map-int.hex"));

    assertThat(((BlockStored) b.events().get(0)).hashes()).containsExactly(-5L);
    assertThat(b.dataParallelRank()).isEqualTo(1);
  }

  @Test
  void decodesAPositionalBatchOfMapEvents() throws Exception {
    EventBatch b = decoder.decode(Fixtures.payload("mixed.hex"));

    assertThat(b.events())
        .containsExactly(
            new BlockStored(new long[] {21}, null, new int[] {5, 6, 7, 8}, 4, null, null));
    assertThat(b.dataParallelRank()).isZero();
  }

  @Test
  void skipsAnEventOfAnUnknownTypeAndCountsIt() throws Exception {
    // ["NewEvent", 1] inside a positional batch: [0.0, [["NewEvent", 1], ["AllBlocksCleared"]]]
    byte[] p =
        hex(
            "92cb0000000000000000"
                + "92"
                + "92a84e65774576656e7401"
                + "91b0416c6c426c6f636b73436c6561726564");

    EventBatch b = decoder.decode(p);

    assertThat(b.events()).containsExactly(new AllBlocksCleared());
    assertThat(b.unknownEvents()).isEqualTo(1);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "", // nothing
        "c1", // never used
        "a3616263", // a string, not a batch
        "91cb0000000000000000", // [ts] without events
        "92cb000000000000000090c0", // trailing bytes
        "92cb00000000000000009191c0", // an event that is nil
        // BlockStored with 3 token ids for 1 block of 4
        "92cb00000000000000009196ab426c6f636b53746f72656491" + "0bc093010203" + "04c0",
        // BlockStored with a string hash
        "92cb00000000000000009196ab426c6f636b53746f72656491" + "a178c0940102030404c0",
      })
  void rejectsWhatIsNotAnEventBatchWithAReason(String payload) {
    assertThatThrownBy(() -> decoder.decode(hex(payload)))
        .isInstanceOf(KvEventFormatException.class)
        .satisfies(
            e ->
                assertThat(((KvEventFormatException) e).reason())
                    .isIn("msgpack", "batch", "event"));
  }

  @Test
  void truncatedPayloadsAreRejectedNotCrashed() {
    byte[] full = Fixtures.payload("map.hex");
    for (int n = 0; n < full.length; n += 7) {
      byte[] cut = Arrays.copyOf(full, n);
      assertThatThrownBy(() -> decoder.decode(cut)).isInstanceOf(KvEventFormatException.class);
    }
  }

  private static byte[] hex(String s) {
    return java.util.HexFormat.of().parseHex(s);
  }
}
