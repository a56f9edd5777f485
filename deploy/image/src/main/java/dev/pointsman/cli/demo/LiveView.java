package dev.pointsman.cli.demo;

import dev.pointsman.picker.scheduling.EndpointState;
import dev.pointsman.picker.scheduling.PoolSnapshot;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The per-pod view printed while a phase runs: queue, running batch, KV use, requests served. */
final class LiveView {
  private final DemoStack stack;
  private final PrintStream out;
  private final long start = System.nanoTime();

  LiveView(DemoStack stack, PrintStream out) {
    this.stack = stack;
    this.out = out;
  }

  void print(Map<String, Integer> servedSoFar) {
    PoolSnapshot snap = stack.picker.datastore().snapshot(DemoStack.POOL);
    StringBuilder sb =
        new StringBuilder(
            String.format(Locale.ROOT, "  t=%3.0fs ", (System.nanoTime() - start) / 1e9));
    List<String> names = stack.fleet.names();
    for (int i = 0; i < names.size(); i++) {
      EndpointState e = snap.endpoints().get(i);
      sb.append(
          String.format(
              Locale.ROOT,
              "| %s q%-2d r%-2d kv%3.0f%% n%-3d",
              names.get(i),
              e.metrics().waitingRequests(),
              e.metrics().runningRequests(),
              e.metrics().kvUsageOrZero() * 100,
              servedSoFar.getOrDefault(names.get(i), 0)));
    }
    out.println(sb);
  }
}
