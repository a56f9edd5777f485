package dev.pointsman.sim.engine;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Rows of a Vidur kernel-time profile (test resources {@code vidur/}, MIT, © Microsoft
 * Corporation): per row, the tokens and the step's linear-operation time, the sum of the per-layer
 * operations' medians times the layer count plus the embedding's median, in ms.
 */
record VidurRows(long[] tokens, double[] ms) {
  private static final List<String> PER_LAYER =
      List.of(
          "input_layernorm",
          "attn_pre_proj",
          "attn_rope",
          "attn_post_proj",
          "post_attention_layernorm",
          "mlp_up_proj",
          "mlp_act",
          "mlp_down_proj",
          "add");

  /** The rows of {@code file} (e.g. {@code vidur/a100-llama-3-8b-mlp.csv}) at degree {@code tp}. */
  static VidurRows load(String file, int layers, int tp) {
    String resource = "/dev/pointsman/sim/" + file;
    try (InputStream in = VidurRows.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + resource);
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      List<String> header = Arrays.asList(r.readLine().split(","));
      int tokensCol = header.indexOf("num_tokens");
      int tpCol = header.indexOf("num_tensor_parallel_workers");
      int embCol = header.indexOf("time_stats.emb.median");
      int[] layerCols =
          PER_LAYER.stream()
              .mapToInt(op -> header.indexOf("time_stats." + op + ".median"))
              .toArray();
      List<long[]> tokens = new ArrayList<>();
      List<Double> ms = new ArrayList<>();
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        String[] f = line.split(",");
        if (Integer.parseInt(f[tpCol]) != tp) {
          continue;
        }
        double perLayer = 0;
        for (int c : layerCols) {
          perLayer += Double.parseDouble(f[c]);
        }
        tokens.add(new long[] {Long.parseLong(f[tokensCol])});
        ms.add(perLayer * layers + Double.parseDouble(f[embCol]));
      }
      return new VidurRows(
          tokens.stream().mapToLong(t -> t[0]).toArray(),
          ms.stream().mapToDouble(Double::doubleValue).toArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  int size() {
    return tokens.length;
  }

  /** Relative errors |model − measured| / measured of {@code model} over the rows, sorted. */
  double[] relativeErrors(java.util.function.LongToDoubleFunction model) {
    double[] e = new double[tokens.length];
    for (int i = 0; i < e.length; i++) {
      e[i] = Math.abs(model.applyAsDouble(tokens[i]) - ms[i]) / ms[i];
    }
    Arrays.sort(e);
    return e;
  }

  static double quantile(double[] sorted, double q) {
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  }
}
