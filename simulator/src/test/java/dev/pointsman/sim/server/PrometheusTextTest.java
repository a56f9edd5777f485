package dev.pointsman.sim.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PrometheusTextTest {
  @Test
  void writesFamiliesAndEscapedSamples() {
    String text =
        new PrometheusText()
            .family("x:c", "counter", "help \\ with\nnewline")
            .sample("x:c_total", 3, "a", "q\"uote", "b", "back\\slash\nline")
            .sample("x:g", Double.POSITIVE_INFINITY)
            .toString();

    assertThat(text)
        .isEqualTo(
            """
        # HELP x:c help \\\\ with\\nnewline
        # TYPE x:c counter
        x:c_total{a="q\\"uote",b="back\\\\slash\\nline"} 3.0
        x:g +Inf
        """);
  }

  @Test
  void formatsSpecialValues() {
    assertThat(PrometheusText.format(Double.NaN)).isEqualTo("NaN");
    assertThat(PrometheusText.format(Double.NEGATIVE_INFINITY)).isEqualTo("-Inf");
    assertThat(PrometheusText.format(0.25)).isEqualTo("0.25");
    assertThat(PrometheusText.format(1.795963490346E9)).isEqualTo("1795963490.346");
  }
}
