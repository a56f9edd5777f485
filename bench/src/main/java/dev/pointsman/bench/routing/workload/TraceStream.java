package dev.pointsman.bench.routing.workload;

import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.trace.Trace;
import dev.pointsman.bench.routing.trace.TraceFiles;
import dev.pointsman.sim.engine.Segment;
import dev.pointsman.sim.engine.SimRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A scenario's request stream replayed from its trace. The seed picks the starting row; the window
 * is the next {@code rate × duration} rows, and its timestamps are rescaled so that exactly those
 * rows arrive in the run, spaced as in the trace (bursts and lulls kept, the mean rate set by the
 * load). A window longer than the trace wraps around to its first row, one mean gap after its last,
 * with fresh content (so a lap does not hit the previous lap's cache). Each Mooncake {@code
 * hash_ids} id is its own block of distinct tokens (the last block may be partial), so requests
 * that share an id share that block's tokens and, through {@link PromptText}, its text; tokens
 * beyond the listed ids, and every Azure prompt, are unique. Lengths are the trace's, fitted to the
 * served context ({@link ContextLimit}).
 */
public final class TraceStream {
  private TraceStream() {}

  /**
   * Where a replay reads the trace.
   *
   * @param startRow the first row replayed
   * @param rows rows replayed
   * @param speedup trace time per replay time (2 = twice the trace's rate)
   * @param laps times the window passes the trace's end
   */
  public record Window(int startRow, int rows, double speedup, int laps) {}

  /** The window of a replay at {@code ratePerSecond} for {@code durationMs}. */
  public static Window window(
      Trace trace, double ratePerSecond, double durationMs, long seed, int maxRequests) {
    int n = trace.size();
    int start = new SplittableRandom(seed).nextInt(n);
    int rows;
    double speedup;
    if (Double.isFinite(durationMs)) {
      rows =
          (int) Math.max(1, Math.min(maxRequests, Math.round(ratePerSecond * durationMs / 1000)));
      long end = (long) start + rows;
      double span = time(trace, end) - time(trace, start);
      while (!(span > 0)) {
        span = time(trace, ++end) - time(trace, start);
      }
      speedup = span / durationMs;
    } else {
      if (maxRequests == Integer.MAX_VALUE) {
        throw new IllegalArgumentException("an endless replay needs a request limit");
      }
      rows = maxRequests;
      speedup = ratePerSecond / trace.meanRatePerSecond();
    }
    return new Window(start, rows, speedup, (int) (((long) start + rows - 1) / n));
  }

  /** The stream of {@code scenario} (whose trace is set) at {@code ratePerSecond}. */
  public static List<BenchRequest> generate(
      Scenario scenario, double ratePerSecond, double durationMs, long seed, int maxRequests) {
    Trace trace = TraceFiles.load(scenario.trace());
    Window w = window(trace, ratePerSecond, durationMs, seed, maxRequests);
    SplittableRandom root = new SplittableRandom(seed);
    SplittableRandom shedRandom = root.split();
    SplittableRandom streamRandom = root.split();
    double streamed = scenario.production().streamedFraction();
    ContextLimit limit = ServedContext.limit(scenario);
    ContentIds ids = new ContentIds();
    double t0 = time(trace, w.startRow());
    List<BenchRequest> out = new ArrayList<>(w.rows());
    for (int j = 0; j < w.rows(); j++) {
      long g = (long) w.startRow() + j;
      double t = (time(trace, g) - t0) / w.speedup();
      if (t >= durationMs) {
        break;
      }
      int row = (int) (g % trace.size());
      int lap = (int) (g / trace.size());
      ContextLimit.Fit fit = limit.fit(prompt(trace, row, lap, ids), trace.outputTokens(row));
      boolean sheddable = shedRandom.nextDouble() < scenario.sheddableFraction();
      boolean stream = streamRandom.nextDouble() < streamed;
      SimRequest sim =
          new SimRequest(out.size(), t, fit.prompt(), fit.outputTokens(), "", ids.fresh());
      out.add(new BenchRequest(sim, "trace", sheddable, stream, fit.cut()));
    }
    return out;
  }

  private static List<Segment> prompt(Trace trace, int row, int lap, ContentIds ids) {
    int input = trace.inputTokens(row);
    int block = trace.blockTokens();
    long[] blocks = trace.blocks(row);
    List<Segment> segments = new ArrayList<>(blocks.length + 1);
    int covered = 0;
    for (int b = 0; b < blocks.length && covered < input; b++) {
      int len = Math.min(block, input - covered);
      segments.add(new Segment(ContentIds.traceBlock(lap, blocks[b]), len));
      covered += len;
    }
    if (covered < input) {
      segments.add(new Segment(ids.fresh(), input - covered));
    }
    return segments;
  }

  /** Arrival of global row {@code g} (rows past the end wrap, one mean gap after the last). */
  private static double time(Trace trace, long g) {
    int n = trace.size();
    double lapMs = trace.spanMs() + trace.spanMs() / (n - 1);
    return trace.timeMs((int) (g % n)) + (g / n) * lapMs;
  }
}
