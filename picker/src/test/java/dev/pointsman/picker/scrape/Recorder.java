package dev.pointsman.picker.scrape;

import dev.pointsman.picker.scheduling.EndpointMetrics;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Records what a scraper reports, as listener and observer. */
final class Recorder implements ScrapeListener, ScrapeObserver {

  /** One listener call. */
  record Event(String address, EndpointMetrics metrics, String failure) {}

  final List<Event> events = new CopyOnWriteArrayList<>();
  final Map<String, AtomicInteger> skipped = new ConcurrentHashMap<>();
  final Map<String, AtomicInteger> failed = new ConcurrentHashMap<>();
  final AtomicInteger scraped = new AtomicInteger();
  final Map<String, AtomicInteger> listed = new ConcurrentHashMap<>();

  @Override
  public void onSuccess(String address, EndpointMetrics metrics) {
    events.add(new Event(address, metrics, null));
  }

  @Override
  public void onFailure(String address, String reason) {
    events.add(new Event(address, null, reason));
  }

  @Override
  public void scraped(Engine engine, long durationNanos, int skippedLines, Set<Signal> missing) {
    scraped.incrementAndGet();
  }

  @Override
  public void failed(Engine engine, String reason, long durationNanos) {
    failed.computeIfAbsent(reason, r -> new AtomicInteger()).incrementAndGet();
  }

  @Override
  public void skipped(String reason) {
    skipped.computeIfAbsent(reason, r -> new AtomicInteger()).incrementAndGet();
  }

  @Override
  public void listed(Engine engine, String result) {
    listed.computeIfAbsent(result, r -> new AtomicInteger()).incrementAndGet();
  }

  int listedCount(String result) {
    AtomicInteger n = listed.get(result);
    return n == null ? 0 : n.get();
  }

  int skipCount(String reason) {
    AtomicInteger n = skipped.get(reason);
    return n == null ? 0 : n.get();
  }

  long successes(String address) {
    return events.stream().filter(e -> e.address().equals(address) && e.failure() == null).count();
  }

  Event last() {
    return events.getLast();
  }

  /** Polls {@code condition} until it holds or 10 s pass; no fixed sleeps. */
  static boolean await(BooleanSupplier condition) {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        return false;
      }
      LockSupport.parkNanos(1_000_000); // polling period, not waiting for time to pass
    }
    return true;
  }
}
