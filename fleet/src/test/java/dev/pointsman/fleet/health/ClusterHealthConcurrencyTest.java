package dev.pointsman.fleet.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Request threads report outcomes and read shares while the poller reports summaries. */
class ClusterHealthConcurrencyTest {
  private static final long MS = 1_000_000L;

  @Test
  void concurrentOutcomesAreAllCountedAndSharesStayInRange() throws Exception {
    // every request fails: the window trips once it holds minRequests, whichever thread ends it
    ClusterHealth health = new ClusterHealth(new Failover(3000, 3, 1.0, 4000, 60_000, 5000, 0));
    health.summaryReceived(0);
    int threads = 4;
    int each = 1000;
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
    List<Future<Double>> readers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      pool.submit(
          () -> {
            go.await();
            for (int i = 0; i < each; i++) {
              health.outcome(true, MS);
            }
            return null;
          });
    }
    readers.add(
        pool.submit(
            () -> {
              go.await();
              double worst = 0;
              for (int i = 0; i < 10_000; i++) {
                double s = health.share(MS);
                if (s < 0 || s > 1) {
                  worst = s;
                }
                health.summaryReceived(MS);
              }
              return worst;
            }));

    go.countDown();
    pool.shutdown();
    assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

    assertThat(readers.getFirst().get()).isZero();
    // 4,000 failures in one window: it tripped exactly at the 4,000th, not before
    assertThat(health.state(2 * MS)).isEqualTo(ClusterHealth.State.ERRORS);
    assertThat(health.drains()).isEqualTo(1);
  }
}
