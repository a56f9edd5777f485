package dev.pointsman.picker.scrape;

import static dev.pointsman.picker.scrape.Recorder.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ScrapeBudgetTest {

  private static final long SECOND = 1_000_000_000L;
  private final AtomicLong cpu = new AtomicLong();

  private ScrapeBudget budget() {
    return new ScrapeBudget(0.5, Duration.ofMillis(50), Duration.ofMillis(250), cpu::get);
  }

  @Test
  void underBudgetEveryTickScrapes() {
    ScrapeBudget b = budget();
    b.update(0);
    cpu.set(SECOND / 4); // a quarter of a core over one second
    b.update(SECOND);

    assertThat(b.stride()).isEqualTo(1);
  }

  @Test
  void overBudgetTheIntervalStretchesByUsedOverBudget() {
    ScrapeBudget b = budget();
    b.update(0);
    cpu.set(SECOND * 6 / 5); // 1.2 cores: 2.4 times the budget
    b.update(SECOND);

    assertThat(b.stride()).isEqualTo(3);
  }

  @Test
  void theStretchStopsAtTheStalenessBound() {
    ScrapeBudget b = budget();
    b.update(0);
    cpu.set(SECOND * 10);
    b.update(SECOND);

    assertThat(b.maxStride()).isEqualTo(5); // 250 ms at 50 ms
    assertThat(b.stride()).isEqualTo(5);
  }

  @Test
  void itShrinksBackWhenThereIsRoomAndWaitsForAWholePeriod() {
    ScrapeBudget b = budget();
    b.update(0);
    cpu.set(SECOND * 10);
    b.update(SECOND);
    assertThat(b.stride()).isEqualTo(5);

    cpu.addAndGet(SECOND / 10); // 0.1 core at stride 5: about 0.5 at stride 1
    b.update(SECOND + SECOND / 2);
    assertThat(b.stride()).isEqualTo(5); // half a period: unchanged
    b.update(2 * SECOND);

    assertThat(b.stride()).isEqualTo(2);
  }

  @Test
  void theLongestStretchIsConfigurableAndABudgetOfZeroNeverStretches() {
    ScrapeBudget shortStretch =
        new ScrapeBudget(0.5, Duration.ofMillis(50), Duration.ofMillis(100), cpu::get);
    shortStretch.update(0);
    cpu.set(SECOND * 10);
    shortStretch.update(SECOND);
    assertThat(shortStretch.stride()).isEqualTo(2); // 100 ms at 50 ms

    ScraperConfig off = ScraperConfig.DEFAULT.withCpuBudget(0, Duration.ofMillis(250));
    ScrapeBudget unlimited =
        new ScrapeBudget(Double.POSITIVE_INFINITY, off.interval(), off.maxStretch(), cpu::get);
    unlimited.update(SECOND);
    cpu.addAndGet(SECOND * 10);
    unlimited.update(2 * SECOND);
    assertThat(unlimited.stride()).isEqualTo(1);
    assertThatThrownBy(() -> ScraperConfig.DEFAULT.withCpuBudget(0.5, Duration.ofMillis(10)))
        .hasMessage("scrape.maxStretchMillis: 10 (expected >= the interval, 50)");
    assertThatThrownBy(() -> ScraperConfig.DEFAULT.withCpuBudget(-1, Duration.ofMillis(250)))
        .hasMessageStartingWith("scrape.cpuBudgetCores: -1.0");
  }

  @Test
  void theBudgetIsValidated() {
    assertThatThrownBy(
            () -> new ScrapeBudget(0, Duration.ofMillis(50), Duration.ofMillis(250), cpu::get))
        .hasMessage("scrape CPU budget: 0.0 (expected > 0 cores)");
  }

  @Test
  void aStretchedIntervalSkipsTicksEvenlyAndCountsThem() throws Exception {
    AtomicLong clock = new AtomicLong(SECOND);
    Recorder recorder = new Recorder();
    ManualPeriodicExecutor manual = new ManualPeriodicExecutor();
    try (MetricsServer server = new MetricsServer();
        ScrapeHttp http = ScrapeHttp.create(Duration.ofSeconds(2))) {
      server.serving("vllm:num_requests_waiting 1\n");
      // the scraper's threads use two cores of the clock's time: four times the budget
      Scraper scraper =
          new Scraper(
              new ScraperConfig(Duration.ofMillis(50), Duration.ofMillis(500), 8, "/metrics")
                  .withModelsInterval(Duration.ZERO),
              http,
              manual,
              clock::get,
              recorder,
              recorder,
              () -> 2 * clock.get());
      scraper.setTargets(List.of(new ScrapeTarget(server.address(), Engine.VLLM)));
      manual.tickAll(); // opens the budget's first period, and scrapes
      assertThat(await(() -> recorder.scraped.get() == 1)).isTrue();
      clock.addAndGet(SECOND);

      for (int i = 0; i < 8; i++) {
        manual.tickAll();
        int ticked = i + 2;
        assertThat(await(() -> recorder.scraped.get() + recorder.skipCount("budget") == ticked))
            .isTrue();
      }

      assertThat(recorder.skipCount("budget")).isEqualTo(6); // stride 4: 2 of 8 ticks scrape
      assertThat(server.requests()).isEqualTo(3);
      scraper.close();
    } finally {
      manual.shutdownNow();
    }
  }
}
