package dev.pointsman.bench;

import dev.pointsman.bench.extproc.ExtProcLoad;
import dev.pointsman.inference.request.ApiKind;
import dev.pointsman.inference.request.BodyAccumulator;
import dev.pointsman.inference.request.ParsedRequest;
import dev.pointsman.inference.request.RequestParser;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Parse throughput of realistic chat bodies, whole and fed in Envoy-sized 62,000-byte chunks.
 * Throughput in bytes/s is ops/s times {@code bodyBytes} (the actual size is within 1% of it).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class BodyParseBenchmark {
  private static final int CHUNK = 62_000;

  @Param({"4096", "262144", "4194304"})
  public int bodyBytes;

  /**
   * {@code chat}: a multi-turn chat whose text has escapes and characters past U+00FF (the kept
   * prompt is two bytes a character from its first message on); {@code ascii}: one long user
   * message of plain ASCII, as the data-path harness sends ({@code ExtProcLoad.body}).
   */
  @Param({"chat"})
  public String text;

  private final RequestParser parser = RequestParser.withDefaults();
  private byte[] body;

  @Setup
  public void setUp() {
    body =
        text.equals("ascii")
            ? ExtProcLoad.body(bodyBytes)
            : chatBody(bodyBytes).getBytes(StandardCharsets.UTF_8);
  }

  @Benchmark
  public ParsedRequest whole() {
    return parser.parse("/v1/chat/completions", body);
  }

  @Benchmark
  public ParsedRequest chunked() {
    try (BodyAccumulator accumulator = parser.start(ApiKind.CHAT)) {
      for (int offset = 0; offset < body.length; offset += CHUNK) {
        accumulator.feed(body, offset, Math.min(CHUNK, body.length - offset));
      }
      return accumulator.finish();
    }
  }

  /** A multi-turn chat with tools and a tool call, padded with turns of 300 to 2,000 chars. */
  static String chatBody(int size) {
    StringBuilder json = new StringBuilder(size + 4096);
    json.append("{\"messages\":[{\"role\":\"system\",\"content\":\"You are a careful assistant.")
        .append(" Answer with citations \\u2014 and keep \\\"quotes\\\" intact.\"},");
    java.util.SplittableRandom random = new java.util.SplittableRandom(42);
    int turn = 0;
    while (json.length() < size - 700) {
      String role = turn % 2 == 0 ? "user" : "assistant";
      int words = 50 + random.nextInt(300);
      json.append("{\"role\":\"").append(role).append("\",\"content\":\"");
      for (int w = 0; w < words && json.length() < size - 600; w++) {
        json.append(WORDS[random.nextInt(WORDS.length)]).append(w % 17 == 16 ? "\\n" : " ");
      }
      json.append("\"},");
      turn++;
    }
    json.append("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_1\",")
        .append("\"type\":\"function\",\"function\":{\"name\":\"search\",")
        .append("\"arguments\":\"{\\\"q\\\":\\\"latency\\\"}\"}}]},")
        .append("{\"role\":\"tool\",\"tool_call_id\":\"call_1\",\"content\":\"3 results\"}],")
        .append("\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"search\",")
        .append(
            "\"parameters\":{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}}}],")
        .append("\"temperature\":0.7,\"max_completion_tokens\":512,\"stream\":true,")
        .append("\"stream_options\":{\"include_usage\":true},\"model\":\"llama-3.1-8b-instruct\"}");
    return json.toString();
  }

  private static final String[] WORDS = {
    "the",
    "model",
    "request",
    "latency",
    "gateway",
    "prefix",
    "cache",
    "token",
    "pool",
    "endpoint",
    "scheduler",
    "throughput",
    "queue",
    "kv",
    "utilization",
    "adapter",
    "routing",
    "envoy",
    "déjà",
    "naïve",
    "über",
    "日本語",
    "streaming",
    "response",
    "batch",
    "memory",
    "GPU",
    "decode"
  };
}
