package dev.pointsman.sim.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.sim.engine.Engine;
import dev.pointsman.sim.engine.EngineConfig;
import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.engine.Imperfections;
import dev.pointsman.sim.engine.RequestResult;
import dev.pointsman.sim.engine.Segment;
import dev.pointsman.sim.engine.SimRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A restarting engine behind the real-time driver: live requests lose their connection. */
class RestartingPodTest {
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
  private final AtomicLong nanos = new AtomicLong();
  private final RealTimeDriver driver = new RealTimeDriver(scheduler, nanos::get);

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  /** Records what one request's sink was told. */
  private static final class Recorder implements RequestSink {
    final List<String> events = new ArrayList<>();

    @Override
    public void onToken(int generated) {}

    @Override
    public void onFinish(RequestResult result) {
      events.add("finish");
    }

    @Override
    public void onRejected(String message) {
      events.add("rejected");
    }

    @Override
    public void onLost() {
      events.add("lost");
    }
  }

  @Test
  void aRestartLosesTheLiveRequestAndARestartingPodDropsNewOnes() {
    // restarts every second on average, each 10 s down: the first comes long before the request
    // (2,000 tokens, over 10 s on an H100) could finish
    Imperfections world = new Imperfections("clean", null, null, null, null, null, 3600.0, 10.0);
    EngineConfig config = EngineConfig.of("p", "m", GpuProfiles.builtIn().get("H100-80"));
    driver.addPod(i -> new Engine(config, i, driver.listener(), world, 1));
    Recorder first = new Recorder();
    driver.submit(0, SimRequest.of(1, 0, List.of(new Segment(1, 100)), 2000), 0, first);
    driver.call(() -> null).join();
    assertThat(first.events).isEmpty();

    nanos.set(5_000_000_000L);
    boolean up = driver.call(() -> driver.engine(0).isUp()).join();
    Recorder second = new Recorder();
    driver.submit(0, SimRequest.of(2, 5000, List.of(new Segment(2, 100)), 10), 0, second);
    int restarts = driver.call(() -> driver.engine(0).restarts()).join();

    assertThat(first.events).containsExactly("lost");
    assertThat(restarts).isEqualTo(1);
    assertThat(up).isFalse();
    assertThat(second.events).containsExactly("lost");
  }
}
