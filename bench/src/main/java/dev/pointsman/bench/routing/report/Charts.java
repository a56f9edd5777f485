package dev.pointsman.bench.routing.report;

import dev.pointsman.bench.routing.run.RunResult;
import dev.pointsman.bench.routing.run.ScenarioResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** PNG charts of one scenario: TTFT CDF at the headline load, p99 TTFT and goodput vs load. */
public final class Charts {
  private static final int W = 900;
  private static final int H = 560;
  private static final int CDF_POINTS = 200;

  private Charts() {}

  /** Writes the three charts into {@code dir}; returns their file names. */
  public static List<String> write(ScenarioResult r, Path dir) {
    System.setProperty("java.awt.headless", "true");
    List<String> files = new ArrayList<>();
    files.add(save(cdf(r), dir, r.scenario() + "-ttft-cdf"));
    files.add(
        save(
            vsLoad(r, "p99 TTFT vs load", "p99 TTFT (ms, log)", x -> x.ttftMs().p99(), true),
            dir,
            r.scenario() + "-p99-ttft"));
    files.add(
        save(
            vsLoad(
                r, "Goodput vs load", "goodput (req/s at SLO)", RunResult::goodputReqPerS, false),
            dir,
            r.scenario() + "-goodput"));
    return files;
  }

  private static XYChart cdf(ScenarioResult r) {
    XYChart chart =
        new XYChartBuilder()
            .width(W)
            .height(H)
            .title(
                r.scenario()
                    + ": TTFT CDF at "
                    + Math.round(r.headlineLoad() * 100)
                    + "% of fleet capacity")
            .xAxisTitle("TTFT (ms, log)")
            .yAxisTitle("fraction of requests")
            .build();
    chart.getStyler().setXAxisLogarithmic(true);
    chart.getStyler().setMarkerSize(0);
    chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideSE);
    for (String p : r.policies()) {
      List<RunResult> at = r.at(p, r.headlineLoad());
      if (at.isEmpty() || at.get(0).ttftSamples() == null || at.get(0).ttftSamples().length == 0) {
        continue;
      }
      double[] s = at.get(0).ttftSamples();
      int k = Math.min(CDF_POINTS, s.length);
      double[] x = new double[k];
      double[] y = new double[k];
      for (int i = 0; i < k; i++) {
        int idx = (int) Math.min(s.length - 1, Math.round((double) i * (s.length - 1) / (k - 1.0)));
        x[i] = Math.max(1, s[idx]);
        y[i] = (idx + 1.0) / s.length;
      }
      chart.addSeries(p, x, y).setMarker(SeriesMarkers.NONE);
    }
    return chart;
  }

  private static XYChart vsLoad(
      ScenarioResult r, String title, String yTitle, ToDoubleFunction<RunResult> f, boolean log) {
    XYChart chart =
        new XYChartBuilder()
            .width(W)
            .height(H)
            .title(r.scenario() + ": " + title)
            .xAxisTitle("load (fraction of fleet capacity)")
            .yAxisTitle(yTitle)
            .build();
    chart.getStyler().setYAxisLogarithmic(log);
    chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
    for (String p : r.policies()) {
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      for (double load : r.loads()) {
        List<RunResult> at = r.at(p, load);
        double v = ScenarioResult.mean(at, f);
        if (!at.isEmpty() && !Double.isNaN(v)) {
          xs.add(load);
          ys.add(log ? Math.max(1, v) : v);
        }
      }
      if (!xs.isEmpty()) {
        chart.addSeries(p, xs, ys);
      }
    }
    return chart;
  }

  private static String save(XYChart chart, Path dir, String name) {
    try {
      Files.createDirectories(dir);
      BitmapEncoder.saveBitmap(chart, dir.resolve(name).toString(), BitmapEncoder.BitmapFormat.PNG);
      return name + ".png";
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write chart " + name, e);
    }
  }
}
