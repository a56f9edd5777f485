package dev.pointsman.bench.routing.report;

import dev.pointsman.bench.routing.run.ScenarioResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a bench's output: {@code results.json} (in {@code DIR}, or {@code DIR/<scenario>/} when
 * there are several scenarios), the charts beside it, and {@code DIR/report.md}.
 */
public final class ReportWriter {
  private ReportWriter() {}

  /** Writes everything; returns the report's path. */
  public static Path write(List<ScenarioResult> results, Path dir, String command) {
    boolean several = results.size() > 1;
    Map<String, List<String>> charts = new LinkedHashMap<>();
    for (ScenarioResult r : results) {
      Path sub = several ? dir.resolve(r.scenario()) : dir;
      ResultsJson.write(r, sub.resolve("results.json"));
      List<String> files = Charts.write(r, sub);
      String prefix = several ? r.scenario() + "/" : "";
      charts.put(r.scenario(), files.stream().map(f -> prefix + f).toList());
    }
    Path report = dir.resolve("report.md");
    try {
      Files.createDirectories(dir);
      Files.writeString(report, Markdown.report(results, charts, command));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + report, e);
    }
    return report;
  }
}
