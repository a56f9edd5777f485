package dev.pointsman.picker.replication;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.config.ReplicationSection;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class OutboxTest {
  @Test
  void pastItsCapacityAnUpdateIsDroppedAndCounted() {
    Outbox box = new Outbox(2);

    box.tpot("a:1", 0.01, 0.02);
    box.tpot("a:1", 0.01, 0.03);
    box.picked("a:1", new long[] {1}, null, 1);

    assertThat(box.dropped()).isEqualTo(1);
    assertThat(box.drain())
        .containsExactly(new Update.Tpot("a:1", 0.01, 0.02), new Update.Tpot("a:1", 0.01, 0.03));
    box.tpot("a:1", 0.01, 0.04); // draining made room
    assertThat(box.drain()).hasSize(1);
    assertThat(box.dropped()).isEqualTo(1);
  }

  @Test
  void aLongPromptsPickSharesTheLeadingBlocksThatFitOneMessage() {
    Outbox box = Outbox.of(ReplicationSection.DEFAULTS);
    long[] longPrompt = LongStream.range(0, 8_192).toArray(); // 131k tokens
    long[] shortPrompt = LongStream.range(0, 256).toArray();

    box.picked("a:1", longPrompt, null, 10);
    box.picked("a:1", shortPrompt, null, 10);
    List<Update> updates = box.drain();

    long[] shared = ((Update.Pick) updates.get(0)).blocks();
    assertThat(shared).hasSize(7_372).startsWith(0, 1, 2);
    assertThat(shared[7_371]).isEqualTo(7_371);
    assertThat(((Update.Pick) updates.get(1)).blocks()).isEqualTo(shortPrompt);
    long[] oversize = new long[1];
    List<byte[]> messages =
        WireFormat.encode(
            -1, null, updates, ReplicationSection.DEFAULTS.maxMessageBytes(), oversize);
    assertThat(oversize[0]).isZero();
    assertThat(messages).isNotEmpty();
  }

  @Test
  void aPickOfAnIndexKeptByCheckpointsIsShortenedOnlyWhereItsKeysWouldNotFit() {
    PrefixIndex.Checkpoints picker = new PrefixIndex.Checkpoints(512, 8);
    long[] longPrompt = LongStream.range(0, 8_192).toArray();
    Outbox whole = Outbox.of(ReplicationSection.DEFAULTS, picker);
    whole.picked("a:1", longPrompt, null, 10);
    List<Update> updates = whole.drain();
    assertThat(((Update.Pick) updates.get(0)).blocks()).isEqualTo(longPrompt);
    long[] oversize = new long[1];
    List<byte[]> messages =
        WireFormat.encode(
            -1,
            null,
            false,
            updates,
            picker,
            ReplicationSection.DEFAULTS.maxMessageBytes(),
            oversize);
    assertThat(oversize[0]).isZero();
    assertThat(messages).hasSize(1);

    // a message of 8 KiB holds (8,192 − 1,024) ÷ 8 = 896 keys: 512 blocks, then 384 of 8 each
    ReplicationSection small =
        new ReplicationSection(
            null, null, null, null, null, null, null, 8_192, null, null, null, null, null, null);
    Outbox shortened = Outbox.of(small, picker);
    shortened.picked("a:1", longPrompt, null, 10);
    long[] shared = ((Update.Pick) shortened.drain().get(0)).blocks();
    assertThat(shared).hasSize(512 + 384 * 8);
    assertThat(picker.kept(shared.length)).isEqualTo(896);
  }

  @Test
  void byDefaultOnlyPicksAreSharedAndLatenciesOnlyWhenConfigured() {
    Outbox plain = Outbox.of(ReplicationSection.DEFAULTS);
    plain.picked("a:1", new long[] {1}, null, 1);
    plain.ttft("a:1", null, 0.2);
    plain.tpot("a:1", 0.01, 0.02);
    assertThat(plain.drain()).hasSize(1).allMatch(u -> u instanceof Update.Pick);

    Outbox sharing = new Outbox(10, 10, true);
    sharing.picked("a:1", new long[] {1}, null, 1);
    sharing.ttft("a:1", null, 0.2);
    sharing.tpot("a:1", 0.01, 0.02);
    assertThat(sharing.drain()).hasSize(3);
  }
}
