package dev.pointsman.picker.replication;

import static org.assertj.core.api.Assertions.assertThat;

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
}
