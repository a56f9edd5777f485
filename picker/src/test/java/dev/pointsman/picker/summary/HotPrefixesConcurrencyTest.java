package dev.pointsman.picker.summary;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Request threads note prefixes while the summary refresh copies them. */
class HotPrefixesConcurrencyTest {

  @Test
  void concurrentRecordsStayWithinCapacityAndCopiesAreWhole() throws Exception {
    HotPrefixes hot = new HotPrefixes(64);
    CountDownLatch go = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    ExecutorService pool = Executors.newFixedThreadPool(5);
    for (int t = 0; t < 4; t++) {
      int thread = t;
      pool.submit(
          () -> {
            go.await();
            for (int i = 0; i < 2000; i++) {
              hot.record("main", "m", ("t" + thread + "-" + i + "-").repeat(16));
            }
            return null;
          });
    }
    pool.submit(
        () -> {
          go.await();
          for (int i = 0; i < 2000; i++) {
            try {
              assertThat(hot.of("main").size()).isLessThanOrEqualTo(64);
            } catch (Throwable e) {
              failure.compareAndSet(null, e);
            }
          }
          return null;
        });

    go.countDown();
    pool.shutdown();
    assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

    assertThat(failure.get()).isNull();
    assertThat(hot.of("main")).hasSize(64).doesNotHaveDuplicates();
  }
}
