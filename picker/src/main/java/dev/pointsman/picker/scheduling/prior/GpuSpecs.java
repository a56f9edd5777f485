package dev.pointsman.picker.scheduling.prior;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * GPU type labels mapped to spec-sheet numbers. A label is either the value NVIDIA's GPU feature
 * discovery sets on a node as {@code nvidia.com/gpu.product} ({@code NVIDIA-H100-80GB-HBM3}) or a
 * short name an operator writes ({@code H100-80}); matching ignores case. Immutable.
 *
 * <p>Every number below is the vendor's published figure, nothing measured or fitted here. BF16 is
 * the dense tensor-core figure: NVIDIA's datasheets list BF16 "with sparsity", which is twice the
 * dense rate, and the dense half is used.
 *
 * <ul>
 *   <li>H100 SXM5 80 GB, H100 PCIe 80 GB: NVIDIA H100 Tensor Core GPU datasheet (BF16 1,979 and
 *       1,513 TFLOPS with sparsity; 3.35 and 2.0 TB/s).
 *   <li>H200 SXM 141 GB: NVIDIA H200 Tensor Core GPU datasheet (BF16 1,979 TFLOPS with sparsity;
 *       4.8 TB/s).
 *   <li>A100 SXM4 and PCIe, 40 and 80 GB: NVIDIA A100 Tensor Core GPU datasheet (BF16 312 TFLOPS
 *       dense; 1,555 GB/s for 40 GB, 2,039 GB/s SXM4 80 GB, 1,935 GB/s PCIe 80 GB).
 *   <li>L40S: NVIDIA L40S datasheet (BF16 362 TFLOPS dense, 733 with sparsity; 864 GB/s; 48 GB).
 *   <li>L4: NVIDIA L4 Tensor Core GPU datasheet (BF16 242 TFLOPS with sparsity; 300 GB/s; 24 GB).
 *   <li>A10: NVIDIA A10 Tensor Core GPU datasheet (BF16 250 TFLOPS with sparsity; 600 GB/s; 24 GB).
 *       The A10G (AWS EC2 G5) has no NVIDIA datasheet of its own; it shares the A10's memory and
 *       bandwidth, and its tensor rate is taken as the A10's (AWS's variant is said to be lower:
 *       the online fit corrects what this misses).
 * </ul>
 */
public final class GpuSpecs {
  private static final GpuSpec H100_SXM = new GpuSpec("H100-SXM5-80GB", 989.5, 3350, 80);
  private static final GpuSpec H100_PCIE = new GpuSpec("H100-PCIe-80GB", 756.5, 2000, 80);
  private static final GpuSpec H200 = new GpuSpec("H200-SXM-141GB", 989.5, 4800, 141);
  private static final GpuSpec A100_80 = new GpuSpec("A100-SXM4-80GB", 312, 2039, 80);
  private static final GpuSpec A100_PCIE_80 = new GpuSpec("A100-PCIe-80GB", 312, 1935, 80);
  private static final GpuSpec A100_40 = new GpuSpec("A100-40GB", 312, 1555, 40);
  private static final GpuSpec L40S = new GpuSpec("L40S", 362, 864, 48);
  private static final GpuSpec L4 = new GpuSpec("L4", 121, 300, 24);
  private static final GpuSpec A10 = new GpuSpec("A10", 125, 600, 24);
  private static final GpuSpec A10G = new GpuSpec("A10G", 125, 600, 24);

  private static final GpuSpecs BUILT_IN =
      new GpuSpecs(
          rows(
              H100_SXM,
              List.of("NVIDIA-H100-80GB-HBM3", "NVIDIA-H100-SXM5-80GB", "H100-80", "H100"),
              H100_PCIE,
              List.of("NVIDIA-H100-PCIe", "H100-PCIe"),
              H200,
              List.of("NVIDIA-H200", "NVIDIA-H200-141GB-HBM3e", "H200"),
              A100_80,
              List.of("NVIDIA-A100-SXM4-80GB", "A100-80", "A100"),
              A100_PCIE_80,
              List.of("NVIDIA-A100-80GB-PCIe", "A100-PCIe-80"),
              A100_40,
              List.of("NVIDIA-A100-SXM4-40GB", "NVIDIA-A100-PCIE-40GB", "A100-40"),
              L40S,
              List.of("NVIDIA-L40S", "L40S"),
              L4,
              List.of("NVIDIA-L4", "L4"),
              A10,
              List.of("NVIDIA-A10", "A10"),
              A10G,
              List.of("NVIDIA-A10G", "A10G")));

  /** The spec of a neutral prior when no endpoint of a pool names a known GPU. */
  public static final GpuSpec REFERENCE = A100_80;

  private final Map<String, GpuSpec> byLabel;

  private GpuSpecs(Map<String, GpuSpec> byLabel) {
    this.byLabel = Map.copyOf(byLabel);
  }

  /** The built-in table. */
  public static GpuSpecs builtIn() {
    return BUILT_IN;
  }

  /** A table that knows no GPU: every endpoint gets the neutral prior. */
  public static GpuSpecs none() {
    return new GpuSpecs(Map.of());
  }

  /** The spec {@code label} names, if this table knows it. */
  public Optional<GpuSpec> lookup(String label) {
    return label == null ? Optional.empty() : Optional.ofNullable(byLabel.get(key(label)));
  }

  /**
   * This table with every label of the GPU {@code label} names mapped to {@code spec} instead (an
   * operator's own numbers, or a deliberately wrong prior).
   */
  public GpuSpecs with(String label, GpuSpec spec) {
    GpuSpec old = require(label);
    Map<String, GpuSpec> copy = new LinkedHashMap<>(byLabel);
    copy.replaceAll((k, v) -> v.equals(old) ? spec : v);
    return new GpuSpecs(copy);
  }

  /** This table without the GPU {@code label} names: its endpoints get the neutral prior. */
  public GpuSpecs without(String label) {
    GpuSpec old = require(label);
    Map<String, GpuSpec> copy = new LinkedHashMap<>(byLabel);
    copy.values().removeIf(old::equals);
    return new GpuSpecs(copy);
  }

  private GpuSpec require(String label) {
    return lookup(label)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "gpu: '" + label + "' (expected one of " + byLabel.keySet() + ")"));
  }

  private static String key(String label) {
    return label.trim().toLowerCase(Locale.ROOT);
  }

  private static Map<String, GpuSpec> rows(Object... specAndLabels) {
    Map<String, GpuSpec> out = new LinkedHashMap<>();
    for (int i = 0; i < specAndLabels.length; i += 2) {
      GpuSpec spec = (GpuSpec) specAndLabels[i];
      for (Object label : (List<?>) specAndLabels[i + 1]) {
        out.put(key((String) label), spec);
      }
    }
    return out;
  }
}
