package dev.pointsman.bench.routing.suite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import java.util.function.DoublePredicate;
import org.junit.jupiter.api.Test;

class KneeSearchTest {
  /** A policy that holds the SLO up to {@code knee} req/s, counting distinct rates run. */
  private static final class Fake implements DoublePredicate {
    final double knee;
    final Set<Double> rates = new HashSet<>();
    int calls;

    Fake(double knee) {
      this.knee = knee;
    }

    @Override
    public boolean test(double rate) {
      calls++;
      rates.add(rate);
      return rate <= knee;
    }
  }

  @Test
  void fromBelowTheKneeItRisesThenBisectsToThePrecision() {
    Fake f = new Fake(37.3);
    KneeSearch.Knee k = KneeSearch.highest(30, 0.03, f);
    assertThat(k.passing()).isLessThanOrEqualTo(37.3);
    assertThat(k.failing()).isGreaterThan(37.3);
    assertThat(k.failing() - k.passing()).isLessThanOrEqualTo(0.03 * k.passing());
    assertThat(k.bracketed()).isTrue();
    // each rate once, and every one counted
    assertThat(f.calls).isEqualTo(f.rates.size()).isEqualTo(k.runs());
  }

  @Test
  void fromAboveTheKneeItFallsThenBisects() {
    Fake f = new Fake(12.0);
    KneeSearch.Knee k = KneeSearch.highest(100, 0.03, f);
    assertThat(k.passing()).isLessThanOrEqualTo(12.0).isGreaterThan(12.0 / 1.03);
    assertThat(k.failing()).isGreaterThan(12.0);
    assertThat(f.calls).isEqualTo(k.runs());
  }

  @Test
  void aKneeBeyondTheRangeIsReportedAsOneSidedWithTheRateReached() {
    KneeSearch.Knee always = KneeSearch.highest(10, 0.03, r -> true);
    assertThat(always.failing()).isNaN();
    assertThat(always.bracketed()).isFalse();
    assertThat(always.passing()).isGreaterThan(10 * 16 / 1.25).isLessThanOrEqualTo(10 * 16);

    KneeSearch.Knee never = KneeSearch.highest(10, 0.03, r -> false);
    assertThat(never.passing()).isNaN();
    assertThat(never.failing()).isLessThan(10.0 / 16 * 1.25).isGreaterThanOrEqualTo(10.0 / 16);
  }

  @Test
  void badArgumentsAreNamed() {
    assertThatThrownBy(() -> KneeSearch.highest(0, 0.03, r -> true))
        .hasMessageContaining("start: 0.0 (expected a rate > 0)");
    assertThatThrownBy(() -> KneeSearch.highest(10, 1.5, r -> true))
        .hasMessageContaining("precision: 1.5 (expected in (0, 1))");
  }

  @Test
  void theBestBaselineHasTheHighestKneeAndIsNeverPointsman() {
    KneeLatencyReport.PolicyKnee a =
        new KneeLatencyReport.PolicyKnee("gie-default", new KneeSearch.Knee(50, 52, 5));
    KneeLatencyReport.PolicyKnee b =
        new KneeLatencyReport.PolicyKnee("weighted-least-request", new KneeSearch.Knee(60, 62, 5));
    KneeLatencyReport.PolicyKnee none =
        new KneeLatencyReport.PolicyKnee("dynamo-kv", new KneeSearch.Knee(Double.NaN, 1, 5));
    // an operator-written policy (an old default kept for a before-and-after) is no baseline
    KneeLatencyReport.PolicyKnee custom =
        new KneeLatencyReport.PolicyKnee("pointsman-prefix1", new KneeSearch.Knee(80, 82, 5));
    KneeLatencyReport.PolicyKnee pm =
        new KneeLatencyReport.PolicyKnee("pointsman", new KneeSearch.Knee(90, 92, 5));
    assertThat(KneeLatencyReport.best(java.util.List.of(a, none, pm, custom, b))).isEqualTo(b);
    assertThat(KneeLatencyReport.best(java.util.List.of(none, pm))).isNull();
  }

  @Test
  void aTracesKneeBelowOneRequestASecondKeepsItsHundredths() {
    // a Mooncake trace on a mixed fleet is sized at 0.27 req/s; its knees are fractions of that
    assertThat(KneeLatencyReport.rate(0.108)).isEqualTo("0.11");
    assertThat(KneeLatencyReport.rate(0.0216)).isEqualTo("0.02");
    assertThat(KneeLatencyReport.rate(5.73)).isEqualTo("5.7");
    assertThat(KneeLatencyReport.rate(170.04)).isEqualTo("170.0");
  }
}
