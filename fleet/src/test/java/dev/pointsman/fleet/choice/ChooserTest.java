package dev.pointsman.fleet.choice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChooserTest {
  private static final double SLO = 1000;
  private final Chooser chooser = new Chooser(0.8);

  private static Option spot(String name, double ttft) {
    return new Option(name, Tier.SPOT, 1.0, ttft, 0, 1);
  }

  private static Option reserved(String name, double ttft) {
    return new Option(name, Tier.RESERVED, 2.0, ttft, 0, 1);
  }

  private static Option onDemand(String name, double ttft) {
    return new Option(name, Tier.ON_DEMAND, 4.0, ttft, 0, 1);
  }

  private String chosen(List<Option> options, boolean sheddable, double draw) {
    Choice c = chooser.choose(options, SLO, sheddable, draw);
    assertThat(c).isInstanceOf(Choice.Chosen.class);
    return ((Choice.Chosen) c).option().cluster();
  }

  private Choice.Reason reason(List<Option> options) {
    return ((Choice.Chosen) chooser.choose(options, SLO, false, 0)).reason();
  }

  @Test
  void theCheapestTierFillsFirstWhileComfortablyWithinTheSlo() {
    List<Option> options = List.of(onDemand("od", 100), reserved("res", 200), spot("spot", 700));

    assertThat(chosen(options, false, 0)).isEqualTo("spot");
    assertThat(reason(options)).isEqualTo(Choice.Reason.CHEAPEST);
  }

  @Test
  void trafficSpillsToTheNextDearerTierBeforeTheSloBreaks() {
    // spot predicts 900 ms: within the 1000 ms SLO, but past the 800 ms spill mark
    List<Option> options = List.of(onDemand("od", 100), reserved("res", 300), spot("spot", 900));

    assertThat(chosen(options, false, 0)).isEqualTo("res");
  }

  @Test
  void aCheapClusterWhoseDecodeIsPastTheSpillMarkOfTheTpotObjectiveSpillsToo() {
    // TTFT is comfortable everywhere; the TPOT objective is 50 ms, its spill mark 40 ms
    Option slowSpot = new Option("spot", Tier.SPOT, 1.0, 200, 0, 1, 45, null);
    Option fastSpot = new Option("spot", Tier.SPOT, 1.0, 200, 0, 1, 35, null);
    Option unknownSpot = new Option("spot", Tier.SPOT, 1.0, 200, 0, 1, -1, null);
    Option od = new Option("od", Tier.ON_DEMAND, 4.0, 100, 0, 1, 20, null);

    assertThat(pick(List.of(slowSpot, od), 50)).isEqualTo("od");
    assertThat(pick(List.of(fastSpot, od), 50)).isEqualTo("spot");
    // a cluster that reports no TPOT, or a request without a TPOT objective: TTFT alone decides
    assertThat(pick(List.of(unknownSpot, od), 50)).isEqualTo("spot");
    assertThat(pick(List.of(slowSpot, od), Double.NaN)).isEqualTo("spot");
    // past the objective itself everywhere: the fastest (by TTFT) takes it
    Option slowOd = new Option("od", Tier.ON_DEMAND, 4.0, 100, 0, 1, 60, null);
    Choice c = chooser.choose(List.of(slowSpot, slowOd), SLO, 30, false, 0);
    assertThat(((Choice.Chosen) c).option().cluster()).isEqualTo("od");
    assertThat(((Choice.Chosen) c).reason()).isEqualTo(Choice.Reason.FASTEST_OVER_SLO);
  }

  private String pick(List<Option> options, double tpotSlo) {
    Choice c = chooser.choose(options, SLO, tpotSlo, false, 0);
    return ((Choice.Chosen) c).option().cluster();
  }

  @Test
  void whenNothingIsComfortableTheFastestWithinTheSloTakesIt() {
    List<Option> options = List.of(spot("spot", 950), onDemand("od", 850));

    assertThat(chosen(options, false, 0)).isEqualTo("od");
    assertThat(reason(options)).isEqualTo(Choice.Reason.FASTEST_WITHIN_SLO);
  }

  @Test
  void whenNothingIsWithinTheSloTheFastestTakesIt() {
    List<Option> options = List.of(spot("spot", 3000), reserved("res", 1500));

    assertThat(chosen(options, false, 0)).isEqualTo("res");
    assertThat(reason(options)).isEqualTo(Choice.Reason.FASTEST_OVER_SLO);
  }

  @Test
  void equalPricesGoToTheFaster() {
    List<Option> options = List.of(spot("slow", 600), spot("fast", 200));

    assertThat(chosen(options, false, 0)).isEqualTo("fast");
  }

  @Test
  void sheddableTrafficNeverSpillsToOnDemand() {
    // spot is past the spill mark and reserved cannot serve; on-demand is idle
    List<Option> options =
        List.of(
            onDemand("od", 50), new Option("res", Tier.RESERVED, 2, -1, 0, 1), spot("spot", 900));

    assertThat(chosen(options, false, 0)).isEqualTo("od");
    assertThat(chosen(options, true, 0)).isEqualTo("spot");
  }

  @Test
  void sheddableTrafficWithOnlyOnDemandLeftIsRefusedAsSheddable() {
    List<Option> options = List.of(onDemand("od", 50), spot("spot", -1));

    assertThat(chooser.choose(options, SLO, true, 0)).isEqualTo(new Choice.NoCluster(true));
  }

  @Test
  void noServingClusterIsNoClusterNotASheddableRefusal() {
    List<Option> options =
        List.of(spot("down", -1), new Option("drained", Tier.RESERVED, 2, 100, 0, 0));

    assertThat(chooser.choose(options, SLO, false, 0)).isEqualTo(new Choice.NoCluster(false));
    assertThat(chooser.choose(List.of(), SLO, false, 0)).isEqualTo(new Choice.NoCluster(false));
  }

  @Test
  void aHotPrefixGoesBackToItsClusterWhileWithinTheSloEvenIfDearer() {
    Option hot = new Option("od", Tier.ON_DEMAND, 4, 950, 3, 1);
    List<Option> options = List.of(spot("spot", 100), hot);

    assertThat(chosen(options, false, 0)).isEqualTo("od");
    assertThat(reason(options)).isEqualTo(Choice.Reason.AFFINITY);
  }

  @Test
  void aHotPrefixPastTheSloDoesNotAttract() {
    List<Option> options =
        List.of(spot("spot", 100), new Option("od", Tier.ON_DEMAND, 4, 1001, 3, 1));

    assertThat(chosen(options, false, 0)).isEqualTo("spot");
  }

  @Test
  void theDeepestHotPrefixWins() {
    List<Option> options =
        List.of(
            new Option("shallow", Tier.SPOT, 1, 100, 2, 1),
            new Option("deep", Tier.RESERVED, 2, 300, 9, 1));

    assertThat(chosen(options, false, 0)).isEqualTo("deep");
  }

  @Test
  void sheddableAffinityStillNeverGoesToOnDemand() {
    List<Option> options =
        List.of(spot("spot", 100), new Option("od", Tier.ON_DEMAND, 4, 100, 5, 1));

    assertThat(chosen(options, true, 0)).isEqualTo("spot");
  }

  @Test
  void aDrainedClusterGetsNothingEvenWhenCheapest() {
    List<Option> options =
        List.of(new Option("spot", Tier.SPOT, 1, 100, 0, 0), reserved("res", 300));

    assertThat(chosen(options, false, 0)).isEqualTo("res");
    assertThat(chosen(options, false, 0.999)).isEqualTo("res");
  }

  @Test
  void aRampingClusterTakesOnlyDrawsBelowItsShareTheRestGoOnDown() {
    List<Option> options =
        List.of(new Option("spot", Tier.SPOT, 1, 100, 0, 0.25), reserved("res", 300));

    assertThat(chosen(options, false, 0.10)).isEqualTo("spot");
    assertThat(chosen(options, false, 0.24)).isEqualTo("spot");
    assertThat(chosen(options, false, 0.25)).isEqualTo("res");
    assertThat(chosen(options, false, 0.90)).isEqualTo("res");
  }

  @Test
  void aRampingAffineClusterThatDeclinesHandsOverToTheCostRule() {
    List<Option> options =
        List.of(
            new Option("hot", Tier.RESERVED, 2, 100, 4, 0.1),
            spot("cheap", 500),
            reserved("other", 200));

    assertThat(chosen(options, false, 0.5)).isEqualTo("cheap");
  }

  @Test
  void whenEveryOpenClusterIsRampingAndDeclinesTheFirstInOrderTakesIt() {
    List<Option> options =
        List.of(
            new Option("spot", Tier.SPOT, 1, 100, 0, 0.1),
            new Option("res", Tier.RESERVED, 2, 100, 0, 0.2));

    assertThat(chosen(options, false, 0.9)).isEqualTo("spot");
  }

  @Test
  void aSpillMarkOutOfRangeIsRefusedByName() {
    assertThatThrownBy(() -> new Chooser(0)).hasMessage("spillAt: 0.0 (expected in (0, 1])");
    assertThatThrownBy(() -> new Chooser(1.5)).hasMessage("spillAt: 1.5 (expected in (0, 1])");
  }

  @Test
  void fallbacksAreTheNextClustersInTheRulesOrderWithoutTheChosenOne() {
    Chooser two = new Chooser(0.8, 2);
    // cheapest within the spill mark: spot, then res; od only within the SLO itself
    List<Option> options =
        List.of(onDemand("od", 100), reserved("res", 300), spot("spot", 700), spot("far", 2000));

    assertThat(fallbacks(two, options, false, 0)).containsExactly("spot", "res", "od");
    assertThat(fallbacks(new Chooser(0.8, 1), options, false, 0)).containsExactly("spot", "res");
    assertThat(fallbacks(chooser, options, false, 0)).containsExactly("spot");
  }

  @Test
  void fallbacksInAnotherRegionComeFirstThenTheRestInOrder() {
    Chooser two = new Chooser(0.8, 2);
    List<Option> options =
        List.of(
            new Option("east-spot", Tier.SPOT, 1.0, 200, 0, 1, -1, "us-east"),
            new Option("east-res", Tier.RESERVED, 2.0, 200, 0, 1, -1, "us-east"),
            new Option("west-od", Tier.ON_DEMAND, 4.0, 200, 0, 1, -1, "us-west"),
            new Option("unknown", Tier.ON_DEMAND, 5.0, 200, 0, 1, -1, null));

    // chosen east-spot, then its fallbacks; by the rules' order east-res would come first, but a
    // lost us-east would take it too
    assertThat(fallbacks(two, options, false, 0))
        .containsExactly("east-spot", "west-od", "east-res");
    assertThat(fallbacks(new Chooser(0.8, 3), options, false, 0))
        .containsExactly("east-spot", "west-od", "east-res", "unknown");
  }

  @Test
  void drainedClustersAreNeverFallbacksAndRampingOnesAre() {
    Chooser two = new Chooser(0.8, 2);
    List<Option> options =
        List.of(
            spot("spot", 100),
            new Option("drained", Tier.SPOT, 0.5, 50, 0, 0),
            new Option("ramping", Tier.SPOT, 0.8, 100, 0, 0.3),
            onDemand("od", 100));

    // the draw 0.5 passes over the cheaper ramping cluster as a choice, not as a fallback
    assertThat(fallbacks(two, options, false, 0.5)).containsExactly("spot", "ramping", "od");
  }

  @Test
  void sheddableTrafficGetsNoOnDemandFallback() {
    Chooser two = new Chooser(0.8, 2);
    List<Option> options = List.of(spot("spot", 100), onDemand("od", 50), reserved("res", 900));

    assertThat(fallbacks(two, options, true, 0)).containsExactly("spot", "res");
    assertThat(fallbacks(two, List.of(spot("spot", 100), onDemand("od", 50)), true, 0))
        .containsExactly("spot");
    assertThat(fallbacks(two, List.of(spot("spot", 100), onDemand("od", 50)), false, 0))
        .containsExactly("spot", "od");
  }

  /** The chosen cluster, then its fallbacks. */
  private static List<String> fallbacks(
      Chooser c, List<Option> options, boolean sheddable, double draw) {
    Choice.Chosen chosen = (Choice.Chosen) c.choose(options, SLO, sheddable, draw);
    return java.util.stream.Stream.concat(
            java.util.stream.Stream.of(chosen.option()), chosen.fallbacks().stream())
        .map(Option::cluster)
        .toList();
  }

  @Test
  void aFallbackCountOutOfRangeIsRefusedByName() {
    assertThatThrownBy(() -> new Chooser(0.8, -1)).hasMessage("fallbacks: -1 (expected 0..3)");
    assertThatThrownBy(() -> new Chooser(0.8, 4)).hasMessage("fallbacks: 4 (expected 0..3)");
  }
}
