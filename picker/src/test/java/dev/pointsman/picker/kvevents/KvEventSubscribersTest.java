package dev.pointsman.picker.kvevents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.testing.Await;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Subscribers against fake vLLM publishers over real ZeroMQ sockets on loopback. */
class KvEventSubscribersTest {
  private static final String POOL = "llama";

  private final Recorder seen = new Recorder();
  private final KvBlockIndex index = new KvBlockIndex(10_000);
  private final KvEventSubscribers subscribers =
      new KvEventSubscribers(index, seen, System::nanoTime);
  private final FakeVllm engine = new FakeVllm();

  @AfterEach
  void close() throws Exception {
    subscribers.close();
    engine.close();
  }

  private static Endpoint endpoint(String address, FakeVllm e) {
    return new Endpoint(
        address,
        POOL,
        Map.of(
            KvEventsSettings.PORT_LABEL, String.valueOf(e.pubPort()),
            KvEventsSettings.REPLAY_PORT_LABEL, String.valueOf(e.replayPort())));
  }

  /**
   * Subscribes to {@code engine} as {@code 127.0.0.1:8000} and waits until the live stream gets
   * through: the catch-up on connecting is done, then a marker block arrives (which only a live
   * message can bring) and is cleared again.
   */
  private String connected() {
    String address = "127.0.0.1:8000";
    subscribers.update(POOL, KvEventsSettings.on(5557, 5558), List.of(endpoint(address, engine)));
    Await.until("initial sync", () -> seen.count("replay") >= 1);
    Await.until(
        "live",
        () -> {
          engine.publish(FakeVllm.stored(999, null, 9, 9, 9, 9));
          return index.size(address) > 0;
        });
    engine.publish(FakeVllm.cleared());
    Await.until("marker cleared", () -> index.size(address) == 0);
    return address;
  }

  @Test
  void aGapIsFilledByAReplay() {
    String a = connected();
    int replays = seen.count("replay:complete");
    int gaps = seen.count("gap");

    engine.drop(FakeVllm.stored(1, null, 1, 2, 3, 4));
    engine.publish(FakeVllm.stored(2, 1L, 5, 6, 7, 8));

    Await.until("both blocks", () -> index.size(a) == 2);
    assertThat(index.engineHashes(a)).containsExactly(1, 2);
    assertThat(seen.count("gap")).isEqualTo(gaps + 1);
    assertThat(seen.count("replay:complete")).isEqualTo(replays + 1);
  }

  @Test
  void aGapTheEngineCanNoLongerReplayDropsTheEndpointsEntries() {
    String a = connected();
    engine.publish(FakeVllm.stored(1, null, 1, 2, 3, 4));
    Await.until("stored", () -> index.size(a) == 1);

    engine.drop(FakeVllm.empty());
    engine.forget();
    engine.publish(FakeVllm.stored(9, null, 9, 9, 9, 9));

    Await.until("incomplete replay", () -> seen.count("replay:incomplete") >= 1);
    Await.until("only the new block", () -> index.size(a) == 1 && index.engineHashes(a)[0] == 9);
  }

  @Test
  void aRestartedEngineIsForgottenThenFollowedAgain() {
    String a = connected();
    int restarts = seen.count("restart");
    engine.publish(FakeVllm.stored(1, null, 1, 2, 3, 4));
    Await.until("stored", () -> index.size(a) == 1);

    engine.restart();
    engine.publish(FakeVllm.stored(5, null, 5, 5, 5, 5));

    Await.until("restarted", () -> seen.count("restart") == restarts + 1);
    Await.until("only the new block", () -> index.size(a) == 1 && index.engineHashes(a)[0] == 5);
  }

  @Test
  void allBlocksClearedEmptiesThePod() {
    String a = connected();
    engine.publish(FakeVllm.stored(1, null, 1, 2, 3, 4));
    Await.until("stored", () -> index.size(a) == 1);

    engine.publish(FakeVllm.cleared());

    Await.until("cleared", () -> index.size(a) == 0);
  }

  @Test
  void badMessagesAreCountedOnceAndTheStreamGoesOn() {
    String a = connected();
    int bad = seen.count("error:msgpack");
    int frames = seen.count("error:frames");

    engine.publish(new byte[] {(byte) 0xc1});
    engine.raw("".getBytes(), new byte[] {1, 2});
    engine.publish(FakeVllm.stored(1, null, 1, 2, 3, 4));

    Await.until("stored after the bad ones", () -> index.size(a) == 1);
    assertThat(seen.count("error:msgpack")).isEqualTo(bad + 1);
    assertThat(seen.count("error:frames")).isEqualTo(frames + 1);
  }

  @Test
  void endpointsThatLeaveThePoolHaveTheirThreadAndSocketsClosed() throws Exception {
    try (FakeVllm other = new FakeVllm()) {
      // given: two endpoints subscribed, one holding a block
      String a = connected();
      Endpoint b = endpoint("127.0.0.1:8001", other);
      subscribers.update(POOL, KvEventsSettings.on(5557, 5558), List.of(endpoint(a, engine), b));
      Await.until(
          "b subscribed",
          () -> {
            other.publish(FakeVllm.stored(7, null, 7, 7, 7, 7));
            return index.size(b.address()) == 1;
          });
      assertThat(threads("127.0.0.1:8001")).isEqualTo(1);

      // when: b leaves
      subscribers.update(POOL, KvEventsSettings.on(5557, 5558), List.of(endpoint(a, engine)));

      // then: its thread is gone, its entries too, and only a's sockets remain open
      assertThat(threads("127.0.0.1:8001")).isZero();
      assertThat(index.size(b.address())).isZero();
      assertThat(subscribers.subscribed(POOL)).containsExactly(a);
      int[] live = subscribers.liveThreadsAndSockets();
      assertThat(live[0]).isEqualTo(1);
      assertThat(live[1]).isBetween(1, 2); // a's SUB, and its DEALER if it replayed

      // and closing everything leaves no thread
      subscribers.close();
      assertThat(threads("127.0.0.1:")).isZero();
    }
  }

  @Test
  void aSubscriberCatchesUpOnWhatTheEngineCachedBeforeItConnected() {
    // given: the engine stored two blocks before anyone subscribed
    engine.publish(FakeVllm.stored(1, null, 1, 2, 3, 4));
    engine.publish(FakeVllm.stored(2, 1L, 5, 6, 7, 8));
    String a = "127.0.0.1:8000";

    // when
    subscribers.update(POOL, KvEventsSettings.on(5557, 5558), List.of(endpoint(a, engine)));

    // then: no live message needed
    Await.until("both blocks", () -> index.size(a) == 2);
    Await.until("the catch-up reported", () -> seen.count("replay:initial") == 1);
    assertThat(seen.count("restart")).isZero();
  }

  @Test
  void eventsOffSubscribesToNothing() {
    subscribers.update(POOL, KvEventsSettings.OFF, List.of(endpoint("127.0.0.1:8000", engine)));

    assertThat(subscribers.subscribed(POOL)).isEmpty();
    assertThat(threads("127.0.0.1:8000")).isZero();
  }

  private static long threads(String address) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith("pointsman-kv-events-" + address))
        .count();
  }

  /** Counts what the subscribers report. */
  static final class Recorder implements KvEventsObserver {
    final AtomicInteger batches = new AtomicInteger();
    final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

    int count(String what) {
      return counts.getOrDefault(what, new AtomicInteger()).get();
    }

    private void add(String what) {
      counts.computeIfAbsent(what, k -> new AtomicInteger()).incrementAndGet();
    }

    @Override
    public void batch(String pool, int events, KvBlockIndex.Applied applied) {
      batches.incrementAndGet();
    }

    @Override
    public void decodeError(String pool, String reason) {
      add("error:" + reason);
    }

    @Override
    public void gap(String pool, long missed) {
      add("gap");
    }

    @Override
    public void replay(String pool, String outcome) {
      add("replay");
      add("replay:" + outcome);
    }

    @Override
    public void restart(String pool) {
      add("restart");
    }
  }
}
