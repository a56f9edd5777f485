package dev.pointsman.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ShutdownTest {
  private final List<String> closed = new CopyOnWriteArrayList<>();

  @Test
  void closesInReverseOrderOnceDespiteFailures() {
    var shutdown =
        new Shutdown(
            List.of(
                recording("grpc"),
                () -> {
                  closed.add("failing");
                  throw new IllegalStateException("boom");
                },
                recording("admin")),
            Duration.ofSeconds(10));

    shutdown.run();
    shutdown.run();

    assertThat(closed).containsExactly("admin", "failing", "grpc");
  }

  @Test
  void aHangingCloseIsBoundedAndTheRestStillClose() {
    var release = new CountDownLatch(1);
    AutoCloseable hanging =
        () -> {
          closed.add("hanging");
          release.await();
        };
    try {
      new Shutdown(List.of(recording("first"), hanging), Duration.ofMillis(50)).run();

      assertThat(closed).containsExactly("hanging", "first");
    } finally {
      release.countDown();
    }
  }

  private AutoCloseable recording(String name) {
    return () -> closed.add(name);
  }
}
