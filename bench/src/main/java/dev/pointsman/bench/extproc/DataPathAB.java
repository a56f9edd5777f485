package dev.pointsman.bench.extproc;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The data-path A/B: the picker's ext_proc service against the {@link EchoExtProc} baseline (the
 * physical limit of the protocol on this stack), each in its own JVM running {@link ExtProcLoad}
 * (server and Envoy-playing client), alternately, several rounds with the order swapped every
 * round. Each child warms up until the JIT has settled, then measures. Prints per round and target
 * the added latency, CPU, allocation and young GCs per request, the ratios picker / echo per round,
 * and their means with 95% t-intervals over rounds; and the machine's load average at start and
 * end. On a shared machine the ratios are the figures of record: both targets see the same
 * neighbours.
 *
 * <p>Usage: {@code DataPathAB [--heap 1g] [--warmup-min S] [--warmup-max S] [--concurrency N
 * [--hold-ms H]] BODY_BYTES RATE SECONDS [ROUNDS]} (rounds default to 5; the warm-up's minimum
 * defaults to {@link ExtProcLoad}'s).
 */
public final class DataPathAB {
  /** The figures compared, as the child's {@code ab-result} keys, with their headings. */
  static final Map<String, String> FIGURES = new LinkedHashMap<>();

  static {
    FIGURES.put("p50_ms", "added latency p50 (ms)");
    FIGURES.put("p99_ms", "added latency p99 (ms)");
    FIGURES.put("cpu_us", "process CPU per request (µs)");
    FIGURES.put("cpu_nojit_us", "process CPU less JIT compilation per request (µs)");
    FIGURES.put("cpu_nopods_us", "process CPU less the stand-in pods' threads per request (µs)");
    FIGURES.put(
        "scrape_cpu_us",
        "the picker's scraper per request (µs; a cost per second, not per request)");
    FIGURES.put("exec_cpu_us", "gRPC executor CPU per request (µs)");
    FIGURES.put("alloc_kb", "allocation per request (KB)");
    FIGURES.put("alloc_nopods_kb", "allocation less the stand-in pods' threads per request (KB)");
    FIGURES.put("exec_alloc_kb", "executor allocation per request (KB)");
    FIGURES.put("young_gcs", "young GCs in the window");
    FIGURES.put("young_pause_ms", "young GC pause total (ms)");
    FIGURES.put("max_pause_ms", "longest young pause (ms)");
    FIGURES.put("compile_ms", "JIT compilation in the window (ms)");
  }

  private static final List<String> TARGETS = List.of("picker", "echo");

  private DataPathAB() {}

  public static void main(String[] args) throws Exception {
    List<String> positional = new ArrayList<>();
    String heap = "1g";
    String warmupMax = "60";
    String warmupMin = null;
    String concurrency = "0";
    String hold = "0";
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--heap" -> heap = args[++i];
        case "--warmup-max" -> warmupMax = args[++i];
        case "--warmup-min" -> warmupMin = args[++i];
        case "--concurrency" -> concurrency = args[++i];
        case "--hold-ms" -> hold = args[++i];
        default -> positional.add(args[i]);
      }
    }
    if (positional.size() < 3) {
      throw new IllegalArgumentException(
          "usage: DataPathAB [--heap 1g] [--warmup-min S] [--warmup-max S] [--concurrency N"
              + " [--hold-ms H]]"
              + " BODY_BYTES RATE SECONDS [ROUNDS]");
    }
    int body = Integer.parseInt(positional.get(0));
    int rate = Integer.parseInt(positional.get(1));
    int seconds = Integer.parseInt(positional.get(2));
    int rounds = positional.size() > 3 ? Integer.parseInt(positional.get(3)) : 5;
    String loadStart = loadAverage();
    System.out.printf(
        Locale.ROOT,
        "data path A/B: body %d B, %s, %d s measured, %d rounds, heap %s; load average at"
            + " start %s%n",
        body,
        concurrency.equals("0")
            ? rate + " req/s"
            : concurrency
                + " concurrent streams"
                + (hold.equals("0") ? "" : ", each request held " + hold + " ms"),
        seconds,
        rounds,
        heap,
        loadStart);
    Map<String, List<Map<String, Double>>> results = new HashMap<>();
    TARGETS.forEach(t -> results.put(t, new ArrayList<>()));
    for (int round = 0; round < rounds; round++) {
      List<String> order = round % 2 == 0 ? TARGETS : TARGETS.reversed();
      for (String target : order) {
        List<String> load = new ArrayList<>();
        if (warmupMin != null) {
          load.addAll(List.of("--warmup-min", warmupMin));
        }
        if (!concurrency.equals("0")) {
          load.addAll(List.of("--concurrency", concurrency, "--hold-ms", hold));
        }
        load.addAll(List.of("" + rate, "" + seconds, "" + body));
        List<String> command = child(target, heap, warmupMax, load);
        Map<String, Double> r = runChild(command, target + " r" + (round + 1));
        results.get(target).add(r);
      }
      printRound(round, results);
    }
    System.out.println();
    System.out.println(summary(results, rounds));
    System.out.printf(Locale.ROOT, "load average: start %s, end %s%n", loadStart, loadAverage());
  }

  /** The child JVM's command line: this JVM's java and classpath, a fixed heap. */
  static List<String> child(String target, String heap, String warmupMax, List<String> load) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xms" + heap);
    command.add("-Xmx" + heap);
    for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("--sun-misc-unsafe-memory-access") || a.startsWith("--enable-native")) {
        command.add(a);
      }
    }
    command.add("-Dorg.slf4j.simpleLogger.defaultLogLevel=error");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(ExtProcLoad.class.getName());
    command.addAll(List.of("--target", target, "--machine", "--warmup-max", warmupMax));
    command.addAll(load);
    return command;
  }

  private static Map<String, Double> runChild(List<String> command, String label)
      throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    Map<String, Double> result = null;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        System.out.println("  [" + label + "] " + line);
        if (line.startsWith("ab-result ")) {
          result = parse(line);
        }
      }
    }
    int exit = p.waitFor();
    if (exit != 0 || result == null) {
      throw new IllegalStateException(
          label + ": child exited " + exit + (result == null ? " without an ab-result line" : ""));
    }
    return result;
  }

  /** The numeric values of an {@code ab-result key=value ...} line. */
  static Map<String, Double> parse(String line) {
    Map<String, Double> values = new LinkedHashMap<>();
    for (String kv : line.substring("ab-result ".length()).trim().split("\\s+")) {
      int eq = kv.indexOf('=');
      if (eq > 0) {
        try {
          values.put(kv.substring(0, eq), Double.parseDouble(kv.substring(eq + 1)));
        } catch (NumberFormatException e) {
          // a text value (the target's name)
        }
      }
    }
    return values;
  }

  private static void printRound(int round, Map<String, List<Map<String, Double>>> results) {
    Map<String, Double> picker = results.get("picker").get(round);
    Map<String, Double> echo = results.get("echo").get(round);
    StringBuilder sb = new StringBuilder("round " + (round + 1) + " picker/echo:");
    for (String key : FIGURES.keySet()) {
      double e = echo.getOrDefault(key, Double.NaN);
      double p = picker.getOrDefault(key, Double.NaN);
      sb.append(
          String.format(
              Locale.ROOT,
              " %s %s (%s vs %s)",
              key,
              e > 0 ? String.format(Locale.ROOT, "%.2f", p / e) : "n/a",
              num(p),
              num(e)));
    }
    System.out.println(sb);
  }

  /** The summary table: each figure's means per target and the ratio's mean ± 95% half-width. */
  static String summary(Map<String, List<Map<String, Double>>> results, int rounds) {
    StringBuilder sb =
        new StringBuilder(
            "| figure | picker (mean) | echo (mean) | picker / echo, mean ± 95% | per round |\n"
                + "|---|---|---|---|---|\n");
    for (var figure : FIGURES.entrySet()) {
      double[] p = column(results.get("picker"), figure.getKey(), rounds);
      double[] e = column(results.get("echo"), figure.getKey(), rounds);
      RoundRatios r = RoundRatios.of(p, e);
      sb.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s | %s |%n",
              figure.getValue(),
              num(mean(p)),
              num(mean(e)),
              r.interval(),
              r.rounds()));
    }
    double[] warm = column(results.get("picker"), "warmup_s", rounds);
    double[] warmEcho = column(results.get("echo"), "warmup_s", rounds);
    double unsettled =
        rounds * 2
            - sum(column(results.get("picker"), "settled", rounds))
            - sum(column(results.get("echo"), "settled", rounds));
    sb.append(
        String.format(
            Locale.ROOT,
            "warm-up: picker %.0f s, echo %.0f s on average; %d of %d runs ended warm-up before"
                + " the JIT settled; errors %d",
            mean(warm),
            mean(warmEcho),
            (long) unsettled,
            rounds * 2,
            (long)
                (sum(column(results.get("picker"), "errors", rounds))
                    + sum(column(results.get("echo"), "errors", rounds)))));
    return sb.toString();
  }

  private static double[] column(List<Map<String, Double>> runs, String key, int rounds) {
    double[] out = new double[rounds];
    for (int i = 0; i < rounds; i++) {
      out[i] = runs.get(i).getOrDefault(key, Double.NaN);
    }
    return out;
  }

  private static double mean(double[] values) {
    return sum(values) / values.length;
  }

  private static double sum(double[] values) {
    double s = 0;
    for (double v : values) {
      s += v;
    }
    return s;
  }

  private static String num(double v) {
    return Math.abs(v) >= 100
        ? String.format(Locale.ROOT, "%.0f", v)
        : String.format(Locale.ROOT, "%.3g", v);
  }

  /** The 1-, 5- and 15-minute load averages (Linux), else the JVM's 1-minute figure. */
  static String loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException | RuntimeException e) {
      return String.format(
          Locale.ROOT, "%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
  }
}
