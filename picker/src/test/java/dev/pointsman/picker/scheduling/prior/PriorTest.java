package dev.pointsman.picker.scheduling.prior;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.EndpointState;
import dev.pointsman.picker.scheduling.SpeedProfile;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The spec table, the model-size parser, the roofline and the per-pool resolution. */
class PriorTest {
  private static GpuSpec spec(String label) {
    return GpuSpecs.builtIn().lookup(label).orElseThrow();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "NVIDIA-H100-80GB-HBM3, H100-SXM5-80GB",
    "nvidia-h100-80gb-hbm3, H100-SXM5-80GB",
    "H100-80,               H100-SXM5-80GB",
    "NVIDIA-A100-SXM4-80GB, A100-SXM4-80GB",
    "NVIDIA-A100-SXM4-40GB, A100-40GB",
    "NVIDIA-L4,             L4",
    "NVIDIA-A10G,           A10G",
    "' L4 ',                L4",
  })
  void gpuFeatureDiscoveryAndShortLabelsNameTheSameRows(String label, String name) {
    assertThat(spec(label).name()).isEqualTo(name);
  }

  @Test
  void unknownLabelsAreUnknown() {
    assertThat(GpuSpecs.builtIn().lookup("tpu-v5")).isEmpty();
    assertThat(GpuSpecs.builtIn().lookup(null)).isEmpty();
    assertThat(GpuSpecs.none().lookup("L4")).isEmpty();
    assertThatThrownBy(() -> GpuSpecs.builtIn().without("tpu-v5"))
        .hasMessageStartingWith("gpu: 'tpu-v5' (expected one of");
  }

  @Test
  void theTableHoldsTheSpecSheetRatios() {
    // the check: peak BF16 says H100 is 8.2x an L4, bandwidth 11.2x
    GpuSpec h100 = spec("H100-80");
    GpuSpec l4 = spec("L4");
    assertThat(h100.bf16DenseTflops() / l4.bf16DenseTflops()).isCloseTo(8.2, within(0.05));
    assertThat(h100.memoryBandwidthGBps() / l4.memoryBandwidthGBps()).isCloseTo(11.2, within(0.05));
  }

  @Test
  void rowsCanBeReplacedOrRemovedAsAnOperatorWould() {
    GpuSpecs halfL4 = GpuSpecs.builtIn().with("L4", spec("L4").scaled(0.5));
    assertThat(halfL4.lookup("NVIDIA-L4").orElseThrow().memoryBandwidthGBps()).isEqualTo(150);
    assertThat(halfL4.lookup("H100").orElseThrow()).isEqualTo(spec("H100"));
    assertThat(GpuSpecs.builtIn().without("L4").lookup("NVIDIA-L4")).isEmpty();
    assertThat(GpuSpecs.builtIn().without("L4").lookup("A10G")).isPresent();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "meta-llama/Llama-3.1-8B-Instruct,  8",
    "llama-3-70b,                       70",
    "Qwen/Qwen2.5-0.5B-Instruct,        0.5",
    "mistralai/Mixtral-8x7B-v0.1,       56",
    "gpt-oss-120b,                      120",
  })
  void modelNamesHintTheirSize(String model, double billions) {
    assertThat(ModelSize.fromName(model)).hasValue(billions);
  }

  @Test
  void modelSizesStatedOrNot() {
    assertThat(ModelSize.fromName("llama")).isEmpty();
    assertThat(ModelSize.fromName("bert-base")).isEmpty();
    assertThat(ModelSize.parse("70B")).hasValue(70);
    assertThat(ModelSize.parse("8030000000")).hasValue(8.03);
    assertThat(ModelSize.parse("big")).isEmpty();
    assertThat(ModelSize.parse("llama-8b")).isEmpty();
  }

  @Test
  void theRooflineFollowsTheSpecNumbers() {
    // given a made-up GPU of 100 TFLOPS and 1,000 GB/s, 40 GB, serving a 10B model
    GpuSpec gpu = new GpuSpec("test", 100, 1000, 40);
    SpeedProfile p = Roofline.profile(gpu, 10, 1);
    double e = Roofline.EFFICIENCY;
    // then prefill = e × 1e14 / (2 × 1e10) tokens/s; a step reads 2e10 bytes at e × 1e12 B/s
    assertThat(p.prefillTokensPerSecond()).isCloseTo(e * 1e14 / 2e10, within(1e-6));
    assertThat(p.decodeStepSeconds()).isCloseTo(2e10 / (e * 1e12), within(1e-12));
    assertThat(p.tokenBudget()).isEqualTo(2048);
    // twice the bandwidth halves what reading costs and leaves compute alone
    SpeedProfile wide = Roofline.profile(new GpuSpec("test", 100, 2000, 40), 10, 1);
    assertThat(wide.decodeStepSeconds()).isCloseTo(p.decodeStepSeconds() / 2, within(1e-12));
    assertThat(wide.kvSecondsPerToken()).isCloseTo(p.kvSecondsPerToken() / 2, within(1e-15));
    assertThat(wide.prefillTokensPerSecond()).isEqualTo(p.prefillTokensPerSecond());
    // four GPUs in tensor parallel: four times both
    SpeedProfile tp4 = Roofline.profile(gpu, 10, 4);
    assertThat(tp4.prefillTokensPerSecond()).isCloseTo(4 * p.prefillTokensPerSecond(), within(1.0));
    // a 70B model is slower than an 8B one on the same GPU by its size
    SpeedProfile small = Roofline.profile(gpu, 8, 1);
    SpeedProfile large = Roofline.profile(gpu, 70, 1);
    assertThat(small.prefillTokensPerSecond() / large.prefillTokensPerSecond())
        .isCloseTo(70.0 / 8, within(1e-9));
    assertThat(large.kvSecondsPerToken()).isGreaterThan(small.kvSecondsPerToken());
  }

  @Test
  void vllmsLargerStepBudgetOnLargeGpusOtherThanA100s() {
    assertThat(Roofline.tokenBudget(spec("H100"))).isEqualTo(8192);
    assertThat(Roofline.tokenBudget(spec("A100-80"))).isEqualTo(2048);
    assertThat(Roofline.tokenBudget(spec("L4"))).isEqualTo(2048);
  }

  private static EndpointState at(String address, Map<String, String> labels) {
    return new EndpointState(new Endpoint(address, "p", labels), EndpointMetrics.UNKNOWN, true);
  }

  @Test
  void anEndpointOfUnknownGpuGetsItsPoolsMedian() {
    List<EndpointState> pool =
        List.of(
            at("a:1", Map.of("gpu", "H100-80")),
            at("b:1", Map.of("gpu", "L4")),
            at("c:1", Map.of("gpu", "A100-80")),
            at("d:1", Map.of("gpu", "some-new-gpu")));
    List<SpeedProfile> p = SpeedPriors.builtIn().of(pool);
    assertThat(p.get(3).name()).isEqualTo("neutral (pool median)");
    assertThat(p.get(3).prefillTokensPerSecond()).isEqualTo(p.get(2).prefillTokensPerSecond());
    assertThat(p.get(3).decodeStepSeconds()).isEqualTo(p.get(2).decodeStepSeconds());
    // a pool that knows no GPU: every endpoint alike
    List<SpeedProfile> none =
        SpeedPriors.builtIn().of(List.of(at("a:1", Map.of()), at("b:1", Map.of())));
    assertThat(none.get(0)).isEqualTo(none.get(1));
    assertThat(none.get(0).name()).isEqualTo("neutral");
  }

  @Test
  void theLabelCacheGivesTheSameAnswersUnderConcurrencyAndPastItsBound() throws Exception {
    SpeedPriors priors = new SpeedPriors(GpuSpecs.builtIn(), Double.NaN);
    String[] gpus = {"H100-80", "L4", "A100-80", "unknown"};
    int n = SpeedPriors.CACHED * 2;
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<Boolean>> results = new java.util.ArrayList<>();
      for (int t = 0; t < 4; t++) {
        results.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < n; i++) {
                    Endpoint e =
                        new Endpoint(
                            "10.0.0.1:" + (i % 60000 + 1), "p", Map.of("gpu", gpus[i % 4]));
                    SpeedProfile expected =
                        SpeedPriors.builtIn().of(new Endpoint(e.address(), "q", e.labels()));
                    if (!priors.of(e).equals(expected)) {
                      return false;
                    }
                  }
                  return true;
                }));
      }
      for (var r : results) {
        assertThat(r.get(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void labelsStateTheProductTheModelSizeAndTheGpusPerEndpoint() {
    SpeedPriors priors = SpeedPriors.builtIn();
    SpeedProfile shortLabel = priors.of(new Endpoint("a:1", "p", Map.of("gpu", "L4")));
    SpeedProfile product =
        priors.of(
            new Endpoint(
                "a:1",
                "p",
                Map.of("gpu", "L4", SpeedPriors.GPU_PRODUCT_LABEL, "NVIDIA-H100-80GB-HBM3")));
    assertThat(product.name()).isEqualTo("H100-SXM5-80GB");
    assertThat(shortLabel.name()).isEqualTo("L4");
    SpeedProfile big =
        priors.of(
            new Endpoint(
                "a:1",
                "p",
                Map.of(
                    "gpu",
                    "H100-80",
                    SpeedPriors.MODEL_PARAMS_LABEL,
                    "70b",
                    SpeedPriors.TENSOR_PARALLEL_LABEL,
                    "4")));
    SpeedProfile eight = priors.of(new Endpoint("a:1", "p", Map.of("gpu", "H100-80")));
    assertThat(big.decodeStepSeconds() / eight.decodeStepSeconds())
        .isCloseTo(70.0 / 8 / 4, within(1e-9));
    // a size fixed for every endpoint wins over labels
    SpeedProfile fixed =
        new SpeedPriors(GpuSpecs.builtIn(), 70)
            .of(new Endpoint("a:1", "p", Map.of("gpu", "H100-80")));
    assertThat(fixed.decodeStepSeconds() / eight.decodeStepSeconds())
        .isCloseTo(70.0 / 8, within(1e-9));
  }
}
