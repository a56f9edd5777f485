package dev.pointsman.picker.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WarningsTest {

  private final Warnings warnings = new Warnings(new ScrapeTarget("10.0.0.1:8000", Engine.SGLANG));

  @Test
  void eachMissingSignalIsWarnedOfOncePerEndpoint() {
    assertThat(warnings.missing(Set.of(Signal.KV_CAPACITY))).containsExactly(Signal.KV_CAPACITY);
    assertThat(warnings.missing(Set.of(Signal.KV_CAPACITY))).isEmpty();
    assertThat(warnings.missing(Set.of(Signal.KV_CAPACITY, Signal.PREFIX_CACHE)))
        .containsExactly(Signal.PREFIX_CACHE);
    assertThat(
            new Warnings(new ScrapeTarget("10.0.0.2:8000", Engine.SGLANG))
                .missing(Set.of(Signal.KV_CAPACITY)))
        .containsExactly(Signal.KV_CAPACITY);
  }

  @Test
  void aJsonPageAndAListingWithoutLineageAreWarnedOfOnce() {
    URI uri = URI.create("http://10.0.0.1:8000/metrics");

    assertThat(warnings.notPrometheusText(uri)).isTrue();
    assertThat(warnings.notPrometheusText(uri)).isFalse();
    assertThat(warnings.noLineage()).isTrue();
    assertThat(warnings.noLineage()).isFalse();
  }
}
