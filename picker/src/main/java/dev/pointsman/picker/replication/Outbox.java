package dev.pointsman.picker.replication;

import dev.pointsman.picker.scheduling.Decision;
import dev.pointsman.picker.scheduling.Learning;
import java.util.ArrayList;
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
  private final int capacity;
  private final ConcurrentLinkedQueue<Update> queue = new ConcurrentLinkedQueue<>();
  private final AtomicInteger size = new AtomicInteger();
  private final AtomicLong dropped = new AtomicLong();

  public Outbox(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity: " + capacity + " (expected >= 1)");
    }
    this.capacity = capacity;
  }

  @Override
  public void picked(String address, long[] blocks, String adapter, double uncachedTokens) {
    offer(new Update.Pick(address, blocks, adapter, uncachedTokens));
  }

  @Override
  public void ttft(String address, Decision.Prediction prediction, double ttftSeconds) {
    offer(new Update.Ttft(address, prediction, ttftSeconds));
  }

  @Override
  public void tpot(String address, double analyticTpotSeconds, double tpotSeconds) {
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
