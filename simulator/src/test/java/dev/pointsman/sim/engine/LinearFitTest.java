package dev.pointsman.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Percentage.withPercentage;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The step-time model's linear operations against Vidur's measured kernel times (never against the
 * model's own constants). Bounds: median relative error under 6% and 90th percentile under 16% for
 * every file and tensor-parallel degree; docs/simulator.md lists the errors found.
 */
class LinearFitTest {
  private static final GpuProfiles PROFILES = GpuProfiles.builtIn();

  @ParameterizedTest(name = "{0} at TP {2}")
  @CsvSource({
    "vidur/a100-llama-3-8b-mlp.csv, 32, 1",
    "vidur/a100-llama-3-8b-mlp.csv, 32, 2",
    "vidur/a100-llama-3-8b-mlp.csv, 32, 4",
    "vidur/a100-llama-3-8b-mlp.csv, 32, 8",
    "vidur/a100-llama-2-7b-mlp.csv, 32, 1",
    "vidur/a100-llama-2-7b-mlp.csv, 32, 4",
    "vidur/h100-llama-2-7b-mlp.csv, 32, 1",
    "vidur/h100-llama-2-7b-mlp.csv, 32, 4",
    "vidur/a100-llama-3-70b-mlp.csv, 80, 1",
    "vidur/a100-llama-3-70b-mlp.csv, 80, 2",
    "vidur/a100-llama-3-70b-mlp.csv, 80, 4",
    "vidur/a100-llama-3-70b-mlp.csv, 80, 8",
    "vidur/h100-llama-2-70b-mlp.csv, 80, 1",
    "vidur/h100-llama-2-70b-mlp.csv, 80, 4",
    "vidur/h100-llama-2-70b-mlp.csv, 80, 8"
  })
  void theFittedFormReproducesTheMeasuredRows(String file, int layers, int tp) {
    VidurRows rows = VidurRows.load(file, layers, tp);
    double[] c = LinearFit.fit(rows.tokens(), rows.ms());

    double[] errors = rows.relativeErrors(n -> Math.max(c[0], c[1] + c[2] * n));

    assertThat(rows.size()).isGreaterThan(200);
    assertThat(VidurRows.quantile(errors, 0.5)).isLessThan(0.06);
    assertThat(VidurRows.quantile(errors, 0.9)).isLessThan(0.16);
  }

  @Test
  void everyBuiltInFitIsTheFitOfItsMeasuredRows() {
    assertThat(PROFILES.fits()).hasSize(7);
    for (LinearFit f : PROFILES.fits()) {
      VidurRows rows =
          VidurRows.load(f.source(), PROFILES.model(f.model()).layers(), f.tensorParallel());
      double[] c = LinearFit.fit(rows.tokens(), rows.ms());

      assertThat(f.floorMs()).as(f.source()).isCloseTo(c[0], withPercentage(0.1));
      assertThat(f.interceptMs()).as(f.source()).isCloseTo(c[1], withPercentage(0.1));
      assertThat(f.msPerToken()).as(f.source()).isCloseTo(c[2], withPercentage(0.1));
    }
  }

  @ParameterizedTest(name = "{0}/{1}")
  @CsvSource({
    "A100-80, llama-3-8b, vidur/a100-llama-3-8b-mlp.csv, 32, 1",
    "A100-80, llama-3-70b, vidur/a100-llama-3-70b-mlp.csv, 80, 4",
    "H100-80, llama-3-70b, vidur/h100-llama-2-70b-mlp.csv, 80, 4"
  })
  void profilesWithMeasurementsMatchTheirRows(
      String gpu, String model, String file, int layers, int tp) {
    GpuProfile p = PROFILES.get(gpu, model);
    VidurRows rows = VidurRows.load(file, layers, tp);

    double[] errors = rows.relativeErrors(n -> p.costs().linearMs(n));

    assertThat(p.tensorParallel()).isEqualTo(tp);
    assertThat(VidurRows.quantile(errors, 0.5)).isLessThan(0.06);
  }

  /**
   * The derivation used for GPUs without measurements, checked where measurements exist: each
   * profiled GPU's Llama-2-7B rows predicted from its spec sheet and the efficiency observed on the
   * other GPU only.
   */
  @ParameterizedTest(name = "{0} from the other GPU's efficiency")
  @CsvSource({"A100-80, vidur/a100-llama-2-7b-mlp.csv", "H100-80, vidur/h100-llama-2-7b-mlp.csv"})
  void theSpecSheetDerivationPredictsAGpuItWasNotFittedTo(String gpu, String file) {
    List<LinearFit> others = PROFILES.fits().stream().filter(f -> !f.gpu().equals(gpu)).toList();
    Derivation d =
        new Derivation(
            byName(List.of(PROFILES.gpu("A100-80"), PROFILES.gpu("H100-80")), GpuSpec::name),
            byName(
                List.of(
                    PROFILES.model("llama-2-7b"),
                    PROFILES.model("llama-2-70b"),
                    PROFILES.model("llama-3-8b"),
                    PROFILES.model("llama-3-70b")),
                ModelShape::name),
            others,
            new EngineDefaults(0.9, 1, 9, 0.5, 4, 0.035, 16));
    LinearFit derived =
        d.linear(PROFILES.gpu(gpu), PROFILES.model("llama-2-7b"), 1, d.efficiency(gpu));
    VidurRows rows = VidurRows.load(file, 32, 1);

    double[] errors = rows.relativeErrors(derived::ms);

    assertThat(derived.source()).isEqualTo("derived from the spec sheet");
    assertThat(VidurRows.quantile(errors, 0.5)).isLessThan(0.10);
  }

  @Test
  void rowsThatNeverRiseAreRejected() {
    assertThatThrownBy(() -> LinearFit.fit(new long[] {1, 2, 3, 4}, new double[] {5, 4, 3, 2}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expected rows whose time grows with tokens");
  }

  private static <T> Map<String, T> byName(List<T> list, Function<T, String> name) {
    return list.stream().collect(Collectors.toMap(name, t -> t));
  }
}
