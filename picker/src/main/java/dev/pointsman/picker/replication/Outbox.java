package dev.pointsman.picker.replication;

import dev.pointsman.picker.config.ReplicationSection;
import dev.pointsman.picker.scheduling.Decision;
import dev.pointsman.picker.scheduling.Learning;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The updates waiting for the next batch. Request threads add to it on the decision and response
 * paths: a lock-free queue and a counter, never blocking; past {@code capacity} an update is
 * dropped and counted. Drained by the one thread that sends batches.
 */
public final class Outbox implements Learning {
  /** Bytes of a message kept for a pick's fields other than its blocks (address, adapter, …). */
  static final int PICK_OVERHEAD_BYTES = 1_024;

  private final int capacity;
  private final int maxPickBlocks;
  private final boolean shareLatencies;
  private final ConcurrentLinkedQueue<Update> queue = new ConcurrentLinkedQueue<>();
  private final AtomicInteger size = new AtomicInteger();
  private final AtomicLong dropped = new AtomicLong();

  public Outbox(int capacity) {
    this(capacity, Integer.MAX_VALUE, true);
  }

  /**
   * @param maxPickBlocks prompt blocks a pick shares at most: its leading ones, so that it fits a
   *     message
   * @param shareLatencies whether observed TTFT and TPOT are shared too (false: only picks)
   */
  public Outbox(int capacity, int maxPickBlocks, boolean shareLatencies) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity: " + capacity + " (expected >= 1)");
    }
    if (maxPickBlocks < 1) {
      throw new IllegalArgumentException("maxPickBlocks: " + maxPickBlocks + " (expected >= 1)");
    }
    this.capacity = capacity;
    this.maxPickBlocks = maxPickBlocks;
    this.shareLatencies = shareLatencies;
  }

  /**
   * The outbox of a replica configured by {@code cfg} whose prefix index keeps every block: a pick
   * shares no more leading blocks than a message of {@code maxMessageBytes} holds (8 bytes each;
   * 7,372 at the default 60,000), so a long prompt's pick is shortened rather than left out of
   * every message; latencies only with {@code shareLatencies}.
   */
  public static Outbox of(ReplicationSection cfg) {
    return of(cfg, PrefixIndex.Checkpoints.EVERY_BLOCK);
  }

  /**
   * As {@link #of(ReplicationSection)}, for a replica whose prefix index keeps prompts by {@code
   * checkpoints}: a pick travels as its kept keys, so it is shortened only where those would not
   * fit (never, with the picker's checkpoints and the default message size: 7,372 keys stand for
   * 55,392 blocks, more than the hasher reads).
   */
  public static Outbox of(ReplicationSection cfg, PrefixIndex.Checkpoints checkpoints) {
    long keys = (cfg.maxMessageBytes() - PICK_OVERHEAD_BYTES) / Long.BYTES;
    long blocks = checkpoints.longestKeptIn(keys);
    return new Outbox(
        cfg.queueCapacity(), (int) Math.min(Integer.MAX_VALUE, blocks), cfg.shareLatencies());
  }

  @Override
  public void picked(String address, long[] blocks, String adapter, double uncachedTokens) {
    long[] shared = blocks.length > maxPickBlocks ? Arrays.copyOf(blocks, maxPickBlocks) : blocks;
    offer(new Update.Pick(address, shared, adapter, uncachedTokens));
  }

  @Override
  public void ttft(String address, Decision.Prediction prediction, double ttftSeconds) {
    if (!shareLatencies) {
      return;
    }
    offer(new Update.Ttft(address, prediction, ttftSeconds));
  }

  @Override
  public void tpot(String address, double analyticTpotSeconds, double tpotSeconds) {
    if (!shareLatencies) {
      return;
    }
    offer(new Update.Tpot(address, analyticTpotSeconds, tpotSeconds));
  }

  private void offer(Update u) {
    if (size.incrementAndGet() > capacity) {
      size.decrementAndGet();
      dropped.incrementAndGet();
      return;
    }
    queue.add(u);
  }

  /** Updates queued and not yet drained. */
  int pending() {
    return size.get();
  }

  /** Takes everything queued now, oldest first. */
  public List<Update> drain() {
    List<Update> out = new ArrayList<>();
    Update u;
    while ((u = queue.poll()) != null) {
      size.decrementAndGet();
      out.add(u);
    }
    return out;
  }

  /** Updates dropped because the queue was full. */
  public long dropped() {
    return dropped.get();
  }
}
