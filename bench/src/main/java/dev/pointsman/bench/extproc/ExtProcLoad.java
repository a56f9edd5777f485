package dev.pointsman.bench.extproc;

import com.google.protobuf.ByteString;
import com.sun.net.httpserver.HttpServer;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.config.PickerConfig;
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
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A loopback load run of the picker's ext_proc service, playing Envoy's FULL_DUPLEX_STREAMED side
 * over a real TLS socket at a fixed request rate (open loop). The added latency of one request is
 * the time from sending its last request-body chunk to receiving the last echoed chunk: how long
 * Envoy holds the request because of the picker (parse, decide, echo).
 *
 * <p>Usage: {@code ExtProcLoad RATE SECONDS BODY_BYTES [ENDPOINTS]}
 */
public final class ExtProcLoad {
  private static final int CHUNK = 16 * 1024;

  private ExtProcLoad() {}

  public static void main(String[] args) throws Exception {
    int rate = Integer.parseInt(args[0]);
    int seconds = Integer.parseInt(args[1]);
    int bodyBytes = Integer.parseInt(args[2]);
    int endpoints = args.length > 3 ? Integer.parseInt(args[3]) : 8;
    List<HttpServer> pods = startPods(endpoints);
    try (PickerApp picker = new PickerApp(PickerConfig.parse(config(pods)), null).start()) {
      while (!picker.ready()) {
        Thread.onSpinWait();
      }
      ManagedChannel channel = channel(picker);
      byte[] body = body(bodyBytes);
      run(channel, body, rate, Math.max(5, seconds / 2), "warm-up");
      Result r = run(channel, body, rate, seconds, "measured");
      System.out.println(r);
      channel.shutdownNow();
    } finally {
      pods.forEach(p -> p.stop(0));
    }
  }

  private static Result run(
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
          () -> one(channel, body, id, latencies, errors, done),
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
    return new Result(label, rate, body.length, total, total / wall, errors.get(), sorted);
  }

  private static void one(
      ManagedChannel channel,
      byte[] body,
      int id,
      AtomicLongArray latencies,
      AtomicInteger errors,
      CountDownLatch done) {
    long[] lastSent = new long[1];
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
                      latencies.set(id, System.nanoTime() - lastSent[0]);
                      done.countDown();
                    } else if (r.hasImmediateResponse()) {
                      errors.incrementAndGet();
                      latencies.set(id, Long.MAX_VALUE);
                      done.countDown();
                    }
                  }

                  @Override
                  public void onError(Throwable t) {}

                  @Override
                  public void onCompleted() {}
                });
    out.onNext(headers());
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

  private static ProcessingRequest headers() {
    HeaderMap.Builder h = HeaderMap.newBuilder();
    for (String[] kv :
        new String[][] {
          {":method", "POST"},
          {":path", "/v1/chat/completions"},
          {":authority", "gateway"},
          {"content-type", "application/json"}
        }) {
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
  static byte[] body(int bytes) {
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

  private static List<HttpServer> startPods(int n) throws Exception {
    List<HttpServer> pods = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      HttpServer pod = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      int waiting = i % 3;
      pod.createContext(
          "/metrics",
          ex -> {
            byte[] m =
                ("vllm:num_requests_waiting{model_name=\"llama\",engine=\"0\"} "
                        + waiting
                        + "\n"
                        + "vllm:num_requests_running{model_name=\"llama\",engine=\"0\"} 4\n"
                        + "vllm:kv_cache_usage_perc{model_name=\"llama\",engine=\"0\"} 0.3\n")
                    .getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, m.length);
            ex.getResponseBody().write(m);
            ex.close();
          });
      pod.start();
      pods.add(pod);
    }
    return pods;
  }

  private static String config(List<HttpServer> pods) {
    StringBuilder sb =
        new StringBuilder(
            "grpc: {port: 0, host: 127.0.0.1}\nadmin: {port: 0, host: 127.0.0.1}\n"
                + "decisionLog: 64\npools:\n  - name: p\n    models: [llama]\n    endpoints:\n");
    for (int i = 0; i < pods.size(); i++) {
      sb.append("      - {address: \"127.0.0.1:")
          .append(pods.get(i).getAddress().getPort())
          .append("\", labels: {gpu: ")
          .append(i % 2 == 0 ? "H100-80" : "L4")
          .append("}}\n");
    }
    return sb.toString();
  }

  private static ManagedChannel channel(PickerApp picker) throws Exception {
    String pem = picker.certificatePem().orElseThrow();
    return NettyChannelBuilder.forAddress("localhost", picker.grpcPort())
        .sslContext(
            GrpcSslContexts.forClient()
                .trustManager(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))
                .build())
        .build();
  }

  record Result(
      String label, int rate, int bodyBytes, int requests, double achieved, int errors, long[] ns) {
    @Override
    public String toString() {
      return String.format(
          Locale.ROOT,
          "%s: rate %d/s (achieved %.0f/s), body %d B, %d requests, %d errors, added latency"
              + " p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms, max %.3f ms",
          label,
          rate,
          achieved,
          bodyBytes,
          requests,
          errors,
          q(0.50),
          q(0.99),
          q(0.999),
          ns[ns.length - 1] / 1e6);
    }

    private double q(double p) {
      return ns[Math.min(ns.length - 1, (int) Math.ceil(p * ns.length) - 1)] / 1e6;
    }
  }
}
