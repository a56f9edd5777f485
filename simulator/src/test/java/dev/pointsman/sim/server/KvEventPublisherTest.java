package dev.pointsman.sim.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.Value;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * The simulator publishes vLLM's wire format ({@code ZmqEventPublisher}, current map encoding) over
 * real sockets: the test reads the batch back through the replay socket, as a vLLM subscriber
 * would.
 */
class KvEventPublisherTest {

  @Test
  void storedRemovedAndClearedGoOutAsOneMapEncodedBatchAndReplay() throws Exception {
    try (KvEventPublisher publisher = new KvEventPublisher("127.0.0.1", 0, 0, "", 0);
        ZContext context = new ZContext(1)) {
      // when: the engine reports a chain of two blocks, an eviction and a restart
      publisher.stored(0, 0x1234L, 4);
      publisher.stored(0x1234L, -42L, 4);
      publisher.removed(-42L);
      publisher.cleared();

      // then: a replay from 0 returns them (in one or more batches), then the end marker
      ZMQ.Socket dealer = context.createSocket(SocketType.DEALER);
      dealer.connect("tcp://127.0.0.1:" + publisher.replayPort());
      List<Value> events = new ArrayList<>();
      long expected = 0;
      while (events.size() < 4) {
        dealer.sendMore(new byte[0]);
        dealer.send(ByteBuffer.allocate(8).putLong(expected).array());
        while (true) {
          assertThat(dealer.recv(0)).isEmpty();
          long seq = ByteBuffer.wrap(dealer.recv(0)).getLong();
          byte[] payload = dealer.recv(0);
          if (seq == -1) {
            assertThat(payload).isEmpty();
            break;
          }
          assertThat(seq).isEqualTo(expected++);
          try (MessageUnpacker u = MessagePack.newDefaultUnpacker(payload)) {
            var batch = u.unpackValue().asMapValue().map();
            assertThat(batch.keySet().stream().map(Value::toString))
                .containsExactly("ts", "events", "data_parallel_rank");
            batch.forEach(
                (k, v) -> {
                  if (k.toString().equals("events")) {
                    events.addAll(v.asArrayValue().list());
                  }
                });
          }
        }
      }
      var first = events.get(0).asMapValue().map();
      // vLLM's BlockStored fields in declaration order, the tag first, defaults omitted
      assertThat(String.join(",", first.keySet().stream().map(Value::toString).toList()))
          .isEqualTo(
              "type,block_hashes,parent_block_hash,token_ids,block_size,lora_id,medium,lora_name");
      assertThat(events.get(0).toString())
          .contains("\"type\":\"BlockStored\"", "\"parent_block_hash\":null", "\"block_size\":4");
      assertThat(events.get(1).toString()).contains("\"medium\":\"GPU\"");
      assertThat(events.get(2).toString()).contains("\"type\":\"BlockRemoved\"");
      assertThat(events.get(3).toString()).isEqualTo("{\"type\":\"AllBlocksCleared\"}");
      byte[] hash =
          first.entrySet().stream()
              .filter(e -> e.getKey().toString().equals("block_hashes"))
              .findFirst()
              .orElseThrow()
              .getValue()
              .asArrayValue()
              .get(0)
              .asBinaryValue()
              .asByteArray();
      assertThat(hash).hasSize(32);
      assertThat(ByteBuffer.wrap(hash, 24, 8).getLong()).isEqualTo(0x1234L);
    }
  }

  @Test
  void tokenIdsAreDerivedFromTheBlockHashDeterministically() {
    assertThat(dev.pointsman.sim.engine.BlockHashes.tokenIds(7, 16))
        .isEqualTo(dev.pointsman.sim.engine.BlockHashes.tokenIds(7, 16));
    assertThat(dev.pointsman.sim.engine.BlockHashes.tokenIds(7, 16))
        .isNotEqualTo(dev.pointsman.sim.engine.BlockHashes.tokenIds(8, 16));
    assertThat(
            java.util.Arrays.stream(dev.pointsman.sim.engine.BlockHashes.tokenIds(-1, 64))
                .allMatch(t -> t >= 0 && t < 128_256))
        .isTrue();
  }

  @Test
  void eventsArePortsOfVllmPodsOnly() {
    assertThatThrownBy(
            () ->
                new EngineOptions(null, null, null, null, null, 5557, 5558, null)
                    .checkFor("sglang"))
        .hasMessageContaining("kvEventsPort");
    assertThatThrownBy(() -> new EngineOptions(null, null, null, null, null, 70_000, null, null))
        .hasMessageContaining("kvEventsPort: 70000 (expected 0..65535)");
  }
}
