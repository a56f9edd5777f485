package dev.pointsman.cli.demo;

import java.io.PrintStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code pointsman demo}: a heterogeneous simulated fleet behind the local gateway, the same bursty
 * prefix-sharing traffic sent twice — through plain round-robin, then through Pointsman — and the
 * time to first token of both side by side. Then it keeps serving until Ctrl-C.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    header = "Compares round-robin with Pointsman on a simulated fleet, then keeps serving.",
    description = {
      "Starts 2 H100-class and 4 L4-class simulated vLLM pods, the picker and the local gateway"
          + " on https://localhost:8443 (--port), sends the same bursty, prefix-sharing traffic"
          + " through plain round-robin and then through Pointsman, and prints the time to first"
          + " token of both. Then it keeps serving, with curl and OpenAI SDK lines to try, until"
          + " Ctrl-C. It needs no file: the fleet and the picker's settings are built in.",
    },
    footerHeading = "%nExample:%n",
    footer = {"  ./pointsman demo --duration 30 --no-serve"})
public final class DemoCommand implements Callable<Integer> {
  private static final long SEED = 42;

  @Option(
      names = "--duration",
      description = "Seconds of traffic in total (half per phase). Default: ${DEFAULT-VALUE}.")
  int duration = 60;

  @Option(names = "--rate", description = "Mean requests per second. Default: ${DEFAULT-VALUE}.")
  double rate = 5;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      description =
          "Gateway HTTPS port, the only fixed port of the demo. Default: ${DEFAULT-VALUE}.")
  int port = 8443;

  @Option(names = "--no-serve", description = "Exits after the comparison instead of serving.")
  boolean noServe;

  @Option(names = "--quiet", description = "Prints no live per-pod view.")
  boolean quiet;

  private final PrintStream out = System.out;

  @Override
  public Integer call() throws Exception {
    if (duration < 4 || rate <= 0) {
      System.err.println("pointsman demo: --duration must be >= 4 and --rate > 0");
      return 2;
    }
    // The only fixed port: the pods, the pickers and the round-robin gateway take ephemeral ones.
    var busy = PortCheck.problem(port, "--port");
    if (busy.isPresent()) {
      System.err.println("pointsman demo: " + busy.get());
      return 2;
    }
    // Two pickers run (one per phase, each on its own fleet); their listeners' start lines name
    // internal ephemeral ports, so the demo prints its own line for the one you can talk to.
    System.setProperty("org.slf4j.simpleLogger.log.dev.pointsman.runtime", "warn");
    // The round-robin gateway's picker is down on purpose (it fails open to round-robin), so its
    // "cannot use the endpoint picker" warning would only mislead here.
    System.setProperty(
        "org.slf4j.simpleLogger.log.dev.pointsman.gateway.extproc.PickerTrouble", "error");
    double phaseSeconds = duration / 2.0;
    List<DemoTraffic.Planned> plan =
        DemoTraffic.plan(SEED, phaseSeconds, rate, DemoStack.MODEL, DemoStack.ADAPTER);
    out.printf(
        Locale.ROOT,
        "Pointsman demo: 2x H100-80 + 4x L4 simulated vLLM pods; %d requests per phase over %.0f s"
            + " (bursty, 6 shared system prompts of ~1k tokens, 20%% on a LoRA adapter).%n%n",
        plan.size(),
        phaseSeconds);
    DemoClient.Outcome rr;
    try (DemoStack stack = new DemoStack(0)) {
      out.println("Phase 1/2: round-robin over the pods (what a Kubernetes Service does)");
      rr =
          run(
              stack,
              stack.roundRobin.port(),
              stack.roundRobin.certificatePem().orElseThrow(),
              plan);
    }
    DemoStack stack = new DemoStack(port);
    try {
      out.printf(
          Locale.ROOT,
          "Phase 2/2: Pointsman (a fresh fleet, the same requests; picker ext_proc on"
              + " 127.0.0.1:%d, admin on 127.0.0.1:%d)%n",
          stack.picker.grpcPort(),
          stack.picker.adminPort());
      DemoClient.Outcome pm =
          run(stack, stack.gateway.port(), stack.gateway.certificatePem().orElseThrow(), plan);
      report(rr, pm);
      if (!noServe) {
        serve(stack);
      }
    } finally {
      stack.close();
    }
    return 0;
  }

  private DemoClient.Outcome run(
      DemoStack stack, int gatewayPort, String pem, List<DemoTraffic.Planned> plan)
      throws Exception {
    awaitReady(stack);
    DemoClient client = new DemoClient(URI.create("https://localhost:" + gatewayPort), pem);
    LiveView live = new LiveView(stack, out);
    DemoClient.Outcome o =
        client.play(
            plan,
            served -> {
              if (!quiet) {
                live.print(served);
              }
            });
    out.println();
    return o;
  }

  private static void awaitReady(DemoStack stack) throws InterruptedException {
    CountDownLatch ready = new CountDownLatch(1);
    Thread.ofVirtual()
        .start(
            () -> {
              while (!stack.picker.ready()) {
                Thread.onSpinWait();
              }
              ready.countDown();
            });
    ready.await();
  }

  private void report(DemoClient.Outcome rr, DemoClient.Outcome pm) {
    out.println("Time to first token, as the client saw it (same requests, same fleet):");
    out.printf(
        Locale.ROOT, "  %-12s %9s %9s %9s %7s %7s%n", "", "p50", "p99", "mean", "ok", "failed");
    row("round-robin", rr);
    row("pointsman", pm);
    double p50 =
        Stats.quantile(rr.ttftMs(), 0.5) / Math.max(1e-9, Stats.quantile(pm.ttftMs(), 0.5));
    double p99 =
        Stats.quantile(rr.ttftMs(), 0.99) / Math.max(1e-9, Stats.quantile(pm.ttftMs(), 0.99));
    out.printf(Locale.ROOT, "  Pointsman: p50 %.1fx lower, p99 %.1fx lower.%n", p50, p99);
    out.println("Requests served per pod (round-robin -> pointsman):");
    Map<String, Integer> pods = new TreeMap<>(rr.servedBy());
    pm.servedBy().keySet().forEach(k -> pods.putIfAbsent(k, 0));
    List<String> cells = new ArrayList<>();
    for (String pod : pods.keySet()) {
      cells.add(
          pod
              + " "
              + rr.servedBy().getOrDefault(pod, 0)
              + " -> "
              + pm.servedBy().getOrDefault(pod, 0));
    }
    out.println("  " + String.join(", ", cells));
    out.println();
  }

  private void row(String name, DemoClient.Outcome o) {
    out.printf(
        Locale.ROOT,
        "  %-12s %7.0fms %7.0fms %7.0fms %7d %7d%n",
        name,
        Stats.quantile(o.ttftMs(), 0.5),
        Stats.quantile(o.ttftMs(), 0.99),
        Stats.mean(o.ttftMs()),
        o.ttftMs().size(),
        o.failed());
  }

  private void serve(DemoStack stack) throws InterruptedException {
    int p = stack.gateway.port();
    out.printf(
        Locale.ROOT,
        """
        Serving on https://localhost:%d (self-signed certificate) until Ctrl-C. Try:

          curl -k -N https://localhost:%d/v1/chat/completions -H 'content-type: application/json' \\
            -d '{"model":"llama","stream":true,"messages":[{"role":"user","content":"Hello!"}]}'

          curl -k https://localhost:%d/v1/responses -H 'content-type: application/json' \\
            -d '{"model":"llama","input":"Hello!","max_output_tokens":8}'

          curl -k https://localhost:%d/v1/embeddings -H 'content-type: application/json' \\
            -d '{"model":"llama","input":["first text","second text"],"dimensions":4}'

          curl -k https://localhost:%d/v1/models

          python -c 'import httpx, openai; c = openai.OpenAI(base_url="https://localhost:%d/v1", \\
            api_key="none", http_client=httpx.Client(verify=False)); \\
            print(c.chat.completions.create(model="sql-lora", \\
            messages=[{"role":"user","content":"Count users"}]).choices[0].message.content)'

        Why each request went where it did: curl -s http://localhost:%d/debug/decisions
        %n""",
        p,
        p,
        p,
        p,
        p,
        p,
        stack.picker.adminPort());
    CountDownLatch stop = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(stop::countDown, "demo-stop"));
    stop.await();
  }
}
