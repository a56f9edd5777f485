package dev.pointsman.gateway.bench;

import dev.pointsman.gateway.app.LocalGateway;
import dev.pointsman.gateway.config.GatewayConfig;
import dev.pointsman.gateway.config.ListenSection;
import dev.pointsman.gateway.config.PickerSection;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.config.PickerConfig;
import io.netty.channel.EventLoopGroup;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;

/**
 * Measures the real-socket path once, for docs/benchmarks.md (not part of the test suite):
 * closed-loop clients send short non-streamed completions either straight to stub model servers
 * that answer at once, or through the local gateway (plaintext HTTP/1.1 listener) and the picker
 * (TLS gRPC ext_proc, FULL_DUPLEX_STREAMED both ways). Prints requests/s and latency percentiles of
 * both and the difference.
 *
 * <p>Args: {@code [concurrency=16] [seconds=10] [warmupSeconds=3]}.
 */
public final class RealSocketBench {
  private static final String BODY =
      "{\"model\":\"llama-8b\",\"prompt\":\"Say ok.\",\"max_tokens\":1,\"stream\":false}";

  private RealSocketBench() {}

  public static void main(String[] args) throws Exception {
    int concurrency = args.length > 0 ? Integer.parseInt(args[0]) : 16;
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
    int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    EventLoopGroup podLoops = StubPod.group();
    List<StubPod> pods = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      pods.add(new StubPod(podLoops));
    }
    String yaml =
        """
        grpc: {port: 0, host: 127.0.0.1, drainSeconds: 0}
        admin: {port: 0, host: 127.0.0.1}
        scrape: {intervalMillis: 50}
        decisionLog: 0
        pools:
          - name: main
            models: [llama-8b]
            endpoints: [{address: "%s"}, {address: "%s"}, {address: "%s"}, {address: "%s"}]
        """
            .formatted(pods.stream().map(StubPod::address).toArray());
    try (PickerApp picker = new PickerApp(PickerConfig.parse(yaml), null).start();
        LocalGateway gateway = startGateway(picker)) {
      while (!picker.ready()) {
        LockSupport.parkNanos(10_000_000L);
      }
      if (args.length > 3 && args[3].equals("hold")) {
        System.out.println("gateway :" + gateway.port() + " pod " + pods.getFirst().address());
        LockSupport.parkNanos(Duration.ofSeconds(seconds).toNanos());
        return;
      }
      URI direct = URI.create("http://" + pods.getFirst().address() + "/v1/completions");
      URI through = URI.create("http://127.0.0.1:" + gateway.port() + "/v1/completions");
      System.out.printf(
          "concurrency %d, %d s measured after %d s warm-up, HTTP/1.1 keep-alive, %d cores%n",
          concurrency, seconds, warmup, Runtime.getRuntime().availableProcessors());
      Result d = run("direct to a stub pod", direct, concurrency, seconds, warmup);
      Result g = run("gateway + picker", through, concurrency, seconds, warmup);
      System.out.printf(
          "added latency: p50 %.3f ms, p90 %.3f ms, p99 %.3f ms%n",
          g.p50 - d.p50, g.p90 - d.p90, g.p99 - d.p99);
    } finally {
      pods.forEach(StubPod::close);
      podLoops.shutdownGracefully().syncUninterruptibly();
    }
  }

  private static LocalGateway startGateway(PickerApp picker) {
    return LocalGateway.start(
        GatewayConfig.of(
            new ListenSection("127.0.0.1", 0, "plaintext", null, null, null),
            PickerSection.trusting(
                "localhost:" + picker.grpcPort(), picker.certificatePem().orElseThrow())));
  }

  private record Result(double rps, double p50, double p90, double p99, long errors) {}

  private static Result run(String name, URI uri, int concurrency, int seconds, int warmup)
      throws Exception {
    HttpClient client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .executor(Executors.newFixedThreadPool(2, Thread.ofPlatform().daemon().factory()))
            .build();
    HttpRequest req =
        HttpRequest.newBuilder(uri)
            .header("content-type", "application/json")
            .timeout(Duration.ofSeconds(10))
            .POST(HttpRequest.BodyPublishers.ofString(BODY))
            .build();
    long start = System.nanoTime();
    long measureFrom = start + Duration.ofSeconds(warmup).toNanos();
    long end = measureFrom + Duration.ofSeconds(seconds).toNanos();
    List<Future<long[]>> workers = new ArrayList<>();
    try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < concurrency; i++) {
        workers.add(threads.submit(() -> loop(client, req, measureFrom, end)));
      }
      List<Long> all = new ArrayList<>();
      long errors = 0;
      for (Future<long[]> w : workers) {
        long[] r = w.get();
        errors += r[0];
        for (int i = 1; i < r.length; i++) {
          all.add(r[i]);
        }
      }
      long[] sorted = all.stream().mapToLong(Long::longValue).sorted().toArray();
      Result res =
          new Result(
              sorted.length / (double) seconds,
              pct(sorted, 0.50),
              pct(sorted, 0.90),
              pct(sorted, 0.99),
              errors);
      System.out.printf(
          "%-22s %8.0f req/s   p50 %.3f ms   p90 %.3f ms   p99 %.3f ms   errors %d%n",
          name, res.rps, res.p50, res.p90, res.p99, res.errors);
      return res;
    }
  }

  private static long[] loop(HttpClient client, HttpRequest req, long measureFrom, long end)
      throws Exception {
    long[] buf = new long[1 << 20];
    int n = 1;
    long errors = 0;
    for (long now = System.nanoTime(); now < end; now = System.nanoTime()) {
      HttpResponse<String> res = client.send(req, HttpResponse.BodyHandlers.ofString());
      long took = System.nanoTime() - now;
      if (now >= measureFrom && n < buf.length) {
        if (res.statusCode() == 200) {
          buf[n++] = took;
        } else {
          errors++;
        }
      }
    }
    buf[0] = errors;
    return Arrays.copyOf(buf, n);
  }

  private static double pct(long[] sorted, double q) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))] / 1e6;
  }
}
