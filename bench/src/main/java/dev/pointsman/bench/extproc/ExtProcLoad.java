package dev.pointsman.bench.extproc;

import com.google.protobuf.ByteString;
import dev.pointsman.bench.scrape.ExpositionServer;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.runtime.GrpcServer;
import io.envoyproxy.envoy.config.core.v3.HeaderMap;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpBody;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpHeaders;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.ManagedChannel;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongConsumer;

/**
 * A loopback load run of the picker's ext_proc service, playing Envoy's FULL_DUPLEX_STREAMED side
 * over a real TLS socket at a fixed request rate (open loop), or with a fixed number of streams
 * each starting its next request when the last one ends ({@code --concurrency N}, closed loop: many
 * long prompts at once, as GIE#2928 reports them), or {@code --hold-ms H} after it ends: the time a
 * model server holds the request before its user sends the next, so that N concurrent users send
 * about N / H requests a second instead of saturating the picker. The added latency of one request
 * is the time from sending its last request-body chunk to receiving the last echoed chunk: how long
 * Envoy holds the request because of the picker (parse, decide, echo).
 *
 * <p>Usage: {@code ExtProcLoad [--target picker|echo] [--machine] [--warmup-min S] [--warmup-max S]
 * [--concurrency N [--hold-ms H]] RATE SECONDS BODY_BYTES [ENDPOINTS]} (RATE is ignored with {@code
 * --concurrency}). {@code --target echo} loads the {@link EchoExtProc} baseline instead of the
 * picker, on the same server. The warm-up runs in one-second slices until the JIT has settled (see
 * {@link #warmUp}). {@code --machine} adds one {@code ab-result} line of key=value figures per
 * request over the measured window (CPU, allocation, young GCs), which {@link DataPathAB} reads.
 */
public final class ExtProcLoad {
  private static final int CHUNK = 16 * 1024;

  private ExtProcLoad() {}

  public static void main(String[] args) throws Exception {
    Options o = Options.parse(args);
    byte[] body = body(o.bodyBytes());
    try (Target target = o.target().equals("echo") ? echo() : picker(o.endpoints())) {
      ManagedChannel channel = channel(target.port(), target.certificatePem());
      JvmCounters counters = new JvmCounters();
      Warmup warm = warmUp(channel, body, o, counters);
      System.gc();
      counters.resetMaxPause();
      JvmCounters.Snapshot before = counters.read();
      Result r = run(channel, body, o, o.seconds(), "measured");
      JvmCounters.Snapshot after = counters.read();
      System.out.println(o.target() + " " + r);
      if (o.machine()) {
        System.out.println(machineLine(o.target(), r, warm, before, after, counters));
      }
      channel.shutdownNow();
    }
  }

  /** Command-line options: {@code RATE SECONDS BODY_BYTES [ENDPOINTS]} and flags. */
  record Options(
      int rate,
      int seconds,
      int bodyBytes,
      int endpoints,
      String target,
      boolean machine,
      int warmupMinSeconds,
      int warmupMaxSeconds,
      int concurrency,
      int holdMillis) {
    static Options parse(String[] args) {
      List<String> positional = new ArrayList<>();
      String target = "picker";
      boolean machine = false;
      int warmMin = -1;
      int warmMax = 60;
      int concurrency = 0;
      int hold = 0;
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--target" -> target = args[++i];
          case "--machine" -> machine = true;
          case "--warmup-min" -> warmMin = Integer.parseInt(args[++i]);
          case "--warmup-max" -> warmMax = Integer.parseInt(args[++i]);
          case "--concurrency" -> concurrency = Integer.parseInt(args[++i]);
          case "--hold-ms" -> hold = Integer.parseInt(args[++i]);
          default -> positional.add(args[i]);
        }
      }
      if (!target.equals("picker") && !target.equals("echo")) {
        throw new IllegalArgumentException("--target " + target + " (expected picker or echo)");
      }
      if (hold < 0 || hold > 0 && concurrency <= 0) {
        throw new IllegalArgumentException(
            "--hold-ms " + hold + " (expected >= 0, and only with --concurrency N)");
      }
      if (positional.size() < 3) {
        throw new IllegalArgumentException(
            "usage: ExtProcLoad [--target picker|echo] [--machine] [--warmup-min S]"
                + " [--warmup-max S] [--concurrency N [--hold-ms H]] RATE SECONDS BODY_BYTES"
                + " [ENDPOINTS]");
      }
      int seconds = Integer.parseInt(positional.get(1));
      return new Options(
          Integer.parseInt(positional.get(0)),
          seconds,
          Integer.parseInt(positional.get(2)),
          positional.size() > 3 ? Integer.parseInt(positional.get(3)) : 8,
          target,
          machine,
          warmMin >= 0 ? warmMin : Math.max(5, seconds / 2),
          warmMax,
          concurrency,
          hold);
    }
  }

  /** How long the warm-up ran and whether the JIT had settled by its end. */
  record Warmup(int seconds, boolean settled, long lastSecondCompileMillis) {}

  /**
   * Compilation has settled when the JIT spent at most this long in each of the last {@link
   * #SETTLED_SLICES} warm-up seconds.
   */
  static final long SETTLED_COMPILE_MILLIS = 5;

  static final int SETTLED_SLICES = 2;

  /**
   * Runs the load in one-second slices for at least the minimum warm-up, then on until the JIT's
   * total compilation time grew by at most {@link #SETTLED_COMPILE_MILLIS} in each of the last
   * {@link #SETTLED_SLICES} slices, or the maximum is reached. Compilation comes in bursts long
   * after start, so the measured window still reports its own ({@code compile_ms}).
   */
  private static Warmup warmUp(ManagedChannel channel, byte[] body, Options o, JvmCounters counters)
      throws InterruptedException {
    int s = 0;
    int quiet = 0;
    long grew = Long.MAX_VALUE;
    while (s < o.warmupMaxSeconds()) {
      long before = counters.compileMillis();
      run(channel, body, o, 1, "warm-up");
      grew = counters.compileMillis() - before;
      s++;
      quiet = grew <= SETTLED_COMPILE_MILLIS ? quiet + 1 : 0;
      if (s >= o.warmupMinSeconds() && quiet >= SETTLED_SLICES) {
        return new Warmup(s, true, grew);
      }
    }
    return new Warmup(s, false, grew);
  }

  /** One {@code ab-result key=value ...} line, the figures per request over the measured window. */
  static String machineLine(
      String target,
      Result r,
      Warmup warm,
      JvmCounters.Snapshot b,
      JvmCounters.Snapshot a,
      JvmCounters counters) {
    double n = r.requests();
    return String.format(
        Locale.ROOT,
        "ab-result target=%s requests=%d errors=%d achieved=%.1f p50_ms=%.4f p99_ms=%.4f"
            + " cpu_us=%.2f cpu_nojit_us=%.2f cpu_nopods_us=%.2f scrape_cpu_us=%.2f exec_cpu_us=%.2f"
            + " alloc_kb=%.3f"
            + " alloc_nopods_kb=%.3f exec_alloc_kb=%.3f young_gcs=%d"
            + " young_pause_ms=%d max_pause_ms=%.3f warmup_s=%d settled=%d compile_ms=%d",
        target,
        r.requests(),
        r.errors(),
        r.achieved(),
        r.q(0.50),
        r.q(0.99),
        (a.processCpuNanos() - b.processCpuNanos()) / n / 1e3,
        (a.processCpuNanos() - b.processCpuNanos() - (a.compileMillis() - b.compileMillis()) * 1e6)
            / n
            / 1e3,
        (a.processCpuNanos() - b.processCpuNanos() - (a.podsCpuNanos() - b.podsCpuNanos()))
            / n
            / 1e3,
        (a.scrapeCpuNanos() - b.scrapeCpuNanos()) / n / 1e3,
        (a.executorCpuNanos() - b.executorCpuNanos()) / n / 1e3,
        (a.allocatedBytes() - b.allocatedBytes()) / n / 1e3,
        (a.allocatedBytes()
                - b.allocatedBytes()
                - (a.podsAllocatedBytes() - b.podsAllocatedBytes()))
            / n
            / 1e3,
        (a.executorAllocatedBytes() - b.executorAllocatedBytes()) / n / 1e3,
        a.youngGcs() - b.youngGcs(),
        a.youngGcMillis() - b.youngGcMillis(),
        counters.maxYoungPauseMillis(),
        warm.seconds(),
        warm.settled() ? 1 : 0,
        a.compileMillis() - b.compileMillis());
  }

  /** The server under load: its TLS port and the certificate to trust. */
  interface Target extends AutoCloseable {
    int port();

    String certificatePem();

    @Override
    void close();
  }

  static Target picker(int endpoints) throws Exception {
    ExpositionServer pods = startPods(endpoints);
    PickerApp app;
    try {
      app = new PickerApp(PickerConfig.parse(config(addresses(pods))), null).start();
    } catch (RuntimeException e) {
      pods.close();
      throw e;
    }
    while (!app.ready()) {
      Thread.onSpinWait();
    }
    return new Target() {
      @Override
      public int port() {
        return app.grpcPort();
      }

      @Override
      public String certificatePem() {
        return app.certificatePem().orElseThrow();
      }

      @Override
      public void close() {
        app.close();
        pods.close();
      }
    };
  }

  /**
   * The echo baseline on the picker's own server: the same configuration read the same way, so the
   * same {@link GrpcServer} settings, TLS and executor.
   */
  static GrpcServer echoServer() {
    PickerConfig config = PickerConfig.parse(config(List.of("127.0.0.1:9")));
    return new GrpcServer(
            config.grpc().toServerConfig(config.extProcSettings()),
            List.of(new EchoExtProc("127.0.0.1:9", config.extProcSettings())),
            List.of(ExternalProcessorGrpc.SERVICE_NAME))
        .start();
  }

  static Target echo() {
    GrpcServer server = echoServer();
    server.setReady(true);
    return new Target() {
      @Override
      public int port() {
        return server.port();
      }

      @Override
      public String certificatePem() {
        return server.certificatePem().orElseThrow();
      }

      @Override
      public void close() {
        server.close();
      }
    };
  }

  private static Result run(
      ManagedChannel channel, byte[] body, Options o, int seconds, String label)
      throws InterruptedException {
    return o.concurrency() > 0
        ? closedLoop(channel, body, o.concurrency(), o.holdMillis(), seconds, label)
        : openLoop(channel, body, o.rate(), seconds, label);
  }

  private static Result openLoop(
      ManagedChannel channel, byte[] body, int rate, int seconds, String label)
      throws InterruptedException {
    int total = rate * seconds;
    AtomicLongArray latencies = new AtomicLongArray(total);
    AtomicInteger errors = new AtomicInteger();
    CountDownLatch done = new CountDownLatch(total);
    ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
    long periodNanos = 1_000_000_000L / rate;
    long start = System.nanoTime();
    for (int i = 0; i < total; i++) {
      int id = i;
      clock.schedule(
          () ->
              one(
                  channel,
                  body,
                  ns -> {
                    latencies.set(id, ns < 0 ? Long.MAX_VALUE : ns);
                    if (ns < 0) {
                      errors.incrementAndGet();
                    }
                    done.countDown();
                  }),
          start + i * periodNanos - System.nanoTime(),
          TimeUnit.NANOSECONDS);
    }
    done.await(seconds + 60L, TimeUnit.SECONDS);
    double wall = (System.nanoTime() - start) / 1e9;
    clock.shutdownNow();
    long[] sorted = new long[total];
    for (int i = 0; i < total; i++) {
      sorted[i] = latencies.get(i);
    }
    Arrays.sort(sorted);
    return new Result(
        label, "rate " + rate + "/s", body.length, total, total / wall, errors.get(), sorted);
  }

  /**
   * {@code concurrency} streams, each starting its next request {@code holdMillis} after its last
   * one ended (at once with 0), until {@code seconds} have passed; requests still running then
   * finish and count. With a hold the streams start spread evenly over it, as users who have been
   * at it for a while are.
   */
  private static Result closedLoop(
      ManagedChannel channel,
      byte[] body,
      int concurrency,
      int holdMillis,
      int seconds,
      String label)
      throws InterruptedException {
    Queue<Long> latencies = new ConcurrentLinkedQueue<>();
    AtomicInteger errors = new AtomicInteger();
    CountDownLatch streams = new CountDownLatch(concurrency);
    ScheduledExecutorService starter = Executors.newSingleThreadScheduledExecutor();
    long start = System.nanoTime();
    long end = start + seconds * 1_000_000_000L;
    long holdNanos = TimeUnit.MILLISECONDS.toNanos(holdMillis);
    for (int w = 0; w < concurrency; w++) {
      Runnable stream =
          new Runnable() {
            @Override
            public void run() {
              if (System.nanoTime() >= end) {
                streams.countDown();
                return;
              }
              Runnable next = this;
              one(
                  channel,
                  body,
                  ns -> {
                    latencies.add(ns < 0 ? Long.MAX_VALUE : ns);
                    if (ns < 0) {
                      errors.incrementAndGet();
                    }
                    if (System.nanoTime() + holdNanos >= end) {
                      streams.countDown(); // its next request would start after the window
                    } else {
                      starter.schedule(next, holdNanos, TimeUnit.NANOSECONDS);
                    }
                  });
            }
          };
      long delay = holdNanos * w / concurrency;
      if (start + delay >= end) {
        streams.countDown();
      } else {
        starter.schedule(stream, delay, TimeUnit.NANOSECONDS);
      }
    }
    streams.await(seconds + 60L, TimeUnit.SECONDS);
    double wall = (System.nanoTime() - start) / 1e9;
    starter.shutdownNow();
    long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
    return new Result(
        label,
        concurrency + " concurrent" + (holdMillis > 0 ? ", each held " + holdMillis + " ms" : ""),
        body.length,
        sorted.length,
        sorted.length / wall,
        errors.get(),
        sorted);
  }

  /**
   * Sends one request on a new stream; {@code finished} gets its added latency in nanoseconds, or
   * -1 when the picker answered with an immediate response or the stream failed.
   */
  private static void one(ManagedChannel channel, byte[] body, LongConsumer finished) {
    long[] lastSent = new long[1];
    AtomicBoolean over = new AtomicBoolean();
    StreamObserver<ProcessingRequest> out =
        ExternalProcessorGrpc.newStub(channel)
            .process(
                new StreamObserver<>() {
                  @Override
                  public void onNext(ProcessingResponse r) {
                    if (r.hasRequestBody()
                        && r.getRequestBody()
                            .getResponse()
                            .getBodyMutation()
                            .getStreamedResponse()
                            .getEndOfStream()) {
                      end(System.nanoTime() - lastSent[0]);
                    } else if (r.hasImmediateResponse()) {
                      end(-1);
                    }
                  }

                  @Override
                  public void onError(Throwable t) {
                    end(-1);
                  }

                  @Override
                  public void onCompleted() {}

                  private void end(long ns) {
                    if (over.compareAndSet(false, true)) {
                      finished.accept(ns);
                    }
                  }
                });
    out.onNext(headers(body.length));
    for (int at = 0; at < body.length; at += CHUNK) {
      int end = Math.min(body.length, at + CHUNK);
      if (end == body.length) {
        lastSent[0] = System.nanoTime();
      }
      out.onNext(
          ProcessingRequest.newBuilder()
              .setRequestBody(
                  HttpBody.newBuilder()
                      .setBody(ByteString.copyFrom(body, at, end - at))
                      .setEndOfStream(end == body.length))
              .build());
    }
    out.onCompleted();
  }

  /** The request headers Envoy sends first on each stream (the harness's and its tests'). */
  static ProcessingRequest headers() {
    return headers(-1);
  }

  /** The same with {@code content-length}, as a client that sends a whole JSON body gives it. */
  static ProcessingRequest headers(long contentLength) {
    HeaderMap.Builder h = HeaderMap.newBuilder();
    List<String[]> headers = new ArrayList<>();
    headers.add(new String[] {":method", "POST"});
    headers.add(new String[] {":path", "/v1/chat/completions"});
    headers.add(new String[] {":authority", "gateway"});
    headers.add(new String[] {"content-type", "application/json"});
    if (contentLength >= 0) {
      headers.add(new String[] {"content-length", Long.toString(contentLength)});
    }
    for (String[] kv : headers) {
      h.addHeaders(
          HeaderValue.newBuilder()
              .setKey(kv[0])
              .setRawValue(ByteString.copyFrom(kv[1], StandardCharsets.UTF_8)));
    }
    return ProcessingRequest.newBuilder()
        .setRequestHeaders(HttpHeaders.newBuilder().setHeaders(h))
        .build();
  }

  /** A chat body of about {@code bytes} bytes, with a long shared system prompt. */
  public static byte[] body(int bytes) {
    StringBuilder user = new StringBuilder();
    while (user.length() < Math.max(0, bytes - 200)) {
      user.append("The quick brown fox jumps over the lazy dog, number ")
          .append(user.length())
          .append(". ");
    }
    String json =
        "{\"model\":\"llama\",\"stream\":true,\"messages\":[{\"role\":\"system\",\"content\":"
            + "\"You are a helpful assistant.\"},{\"role\":\"user\",\"content\":\""
            + user
            + "\"}]}";
    return json.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * The stand-in model servers: one vLLM exposition each (waiting 0, 1 or 2 by turn), on one Netty
   * event-loop thread ({@link ExpositionServer}: keep-alive, a few microseconds a scrape), so that
   * scraping them costs the process what answering real servers' scrapes would not.
   */
  private static ExpositionServer startPods(int n) {
    List<byte[]> bodies = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      bodies.add(
          ("vllm:num_requests_waiting{model_name=\"llama\",engine=\"0\"} "
                  + i % 3
                  + "\n"
                  + "vllm:num_requests_running{model_name=\"llama\",engine=\"0\"} 4\n"
                  + "vllm:kv_cache_usage_perc{model_name=\"llama\",engine=\"0\"} 0.3\n")
              .getBytes(StandardCharsets.UTF_8));
    }
    return new ExpositionServer(bodies, 1);
  }

  private static List<String> addresses(ExpositionServer pods) {
    return pods.ports().stream().map(p -> "127.0.0.1:" + p).toList();
  }

  private static String config(List<String> endpoints) {
    StringBuilder sb =
        new StringBuilder(
            "grpc: {port: 0, host: 127.0.0.1}\nadmin: {port: 0, host: 127.0.0.1}\n"
                + "decisionLog: 64\npools:\n  - name: p\n    models: [llama]\n    endpoints:\n");
    for (int i = 0; i < endpoints.size(); i++) {
      sb.append("      - {address: \"")
          .append(endpoints.get(i))
          .append("\", labels: {gpu: ")
          .append(i % 2 == 0 ? "H100-80" : "L4")
          .append("}}\n");
    }
    return sb.toString();
  }

  static ManagedChannel channel(int port, String pem) throws Exception {
    return NettyChannelBuilder.forAddress("localhost", port)
        .sslContext(
            GrpcSslContexts.forClient()
                .trustManager(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))
                .build())
        .build();
  }

  record Result(
      String label,
      String load,
      int bodyBytes,
      int requests,
      double achieved,
      int errors,
      long[] ns) {
    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%s: %s (achieved %.0f/s), body %d B, %d requests, %d errors, added latency"
              + " p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms, max %.3f ms",
          label,
          load,
          achieved,
          bodyBytes,
          requests,
          errors,
          q(0.50),
          q(0.99),
          q(0.999),
          ns[ns.length - 1] / 1e6);
    }

    double q(double p) {
      return ns[Math.min(ns.length - 1, (int) Math.ceil(p * ns.length) - 1)] / 1e6;
    }
  }
}
