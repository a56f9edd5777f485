package dev.pointsman.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.pointsman.bench.routing.scenario.TraceSpec;
import dev.pointsman.bench.routing.trace.Trace;
import dev.pointsman.bench.routing.trace.TraceFiles;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The traffic recorder end to end: requests with known arrival times, lengths and shared prefixes
 * go through gateway → picker → simulated pods; the picker's recording, read back with the bench's
 * trace reader, has as many requests, their arrival rate (within 10%), the lengths the pods' usage
 * reported, and equal hash ids exactly where the prompts share a prefix — and none of their text.
 */
class RecordingIT {
  private static final int REQUESTS = 40;
  private static final long SPACING_MS = 100;
  private static final int CONVERSATIONS = 4;
  private static final int PREFIX_CHARS = 512; // 8 blocks of 64 characters
  private static final String MARKER = "okapi";
  private static final Pattern PROMPT_TOKENS = Pattern.compile("\"prompt_tokens\":\\s*(\\d+)");
  private static final Pattern COMPLETION_TOKENS =
      Pattern.compile("\"completion_tokens\":\\s*(\\d+)");

  @TempDir Path dir;

  /** {@code n} characters of words, different for each {@code seed}, without JSON escapes. */
  private static String text(String seed, int n) {
    StringBuilder sb = new StringBuilder();
    int i = 0;
    while (sb.length() < n) {
      sb.append(MARKER).append(seed).append('w').append(i++).append(' ');
    }
    return sb.substring(0, n);
  }

  @Test
  void theRecordingReplaysWithTheArrivalRateLengthsAndSharedPrefixesOfTheTrafficSent()
      throws Exception {
    Path file = dir.resolve("traffic.jsonl");
    List<int[]> usage = new ArrayList<>();
    try (Stack stack =
        Stack.start(
            List.of(
                Stack.pod("main-a", Stack.MODEL, List.of()),
                Stack.pod("main-b", Stack.MODEL, List.of())),
            Stack.pickerHeader()
                + "recording: {enabled: true, file: '"
                + file
                + "', salt: it-salt, tenantHeader: x-tenant}\n"
                + """
                models:
                  - {name: llama-8b, pools: [{pool: main}]}
                pools:
                  - {name: main, endpoints: [{address: "%s"}, {address: "%s"}]}
                """,
            c -> c)) {
      ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
      List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
      try {
        List<CompletableFuture<CompletableFuture<HttpResponse<String>>>> scheduled =
            new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
          String prompt =
              text("c" + (i % CONVERSATIONS), PREFIX_CHARS) + text("r" + i, 64 * (1 + i % 5));
          boolean stream = i % 2 == 1;
          String body = Stack.chat(Stack.MODEL, prompt, stream, 4 + 3 * (i % 7));
          var request = stack.post("/v1/chat/completions", body).header("x-tenant", "t" + (i % 2));
          CompletableFuture<CompletableFuture<HttpResponse<String>>> at = new CompletableFuture<>();
          timer.schedule(
              () ->
                  at.complete(
                      stack.http1.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString())),
              i * SPACING_MS,
              TimeUnit.MILLISECONDS);
          scheduled.add(at);
        }
        for (var at : scheduled) {
          sent.add(at.get(30, TimeUnit.SECONDS));
        }
        for (var response : sent) {
          HttpResponse<String> res = response.get(30, TimeUnit.SECONDS);
          assertThat(res.statusCode()).as(res.body()).isEqualTo(200);
          usage.add(
              new int[] {last(PROMPT_TOKENS, res.body()), last(COMPLETION_TOKENS, res.body())});
        }
      } finally {
        timer.shutdownNow();
      }
    } // closing the picker flushes the recording

    String raw = Files.readString(file);
    assertThat(raw).doesNotContain(MARKER);
    assertThat(raw).contains("\"tenant\":\"t0\"", "\"tenant\":\"t1\"");
    Trace trace = TraceFiles.load(new TraceSpec(file.toString(), "mooncake", null));

    // as many requests, at the rate sent (tolerance 10%: arrivals are stamped at the decision)
    assertThat(trace.size()).isEqualTo(REQUESTS);
    assertThat(trace.blockTokens()).isEqualTo(16);
    double sentRate = 1000.0 / SPACING_MS;
    assertThat(trace.meanRatePerSecond()).isCloseTo(sentRate, within(0.1 * sentRate));

    // the lengths the pods' usage reported: the same values, so the same means
    List<Integer> sentIn = new ArrayList<>();
    List<Integer> sentOut = new ArrayList<>();
    usage.forEach(
        u -> {
          sentIn.add(u[0]);
          sentOut.add(u[1]);
        });
    List<Integer> recordedIn = new ArrayList<>();
    List<Integer> recordedOut = new ArrayList<>();
    for (int i = 0; i < trace.size(); i++) {
      recordedIn.add(trace.inputTokens(i));
      recordedOut.add(trace.outputTokens(i));
    }
    assertThat(mean(recordedIn)).isCloseTo(mean(sentIn), within(0.1 * mean(sentIn)));
    assertThat(mean(recordedOut)).isCloseTo(mean(sentOut), within(0.1 * mean(sentOut)));
    assertThat(recordedIn).containsExactlyInAnyOrderElementsOf(sentIn);
    assertThat(recordedOut).containsExactlyInAnyOrderElementsOf(sentOut);

    // the requests of one conversation share the ids of its 8 prefix blocks, and nothing else
    Map<List<Long>, Integer> prefixes = new HashMap<>();
    Set<Long> rest = new HashSet<>();
    int restCount = 0;
    for (int i = 0; i < trace.size(); i++) {
      long[] ids = trace.blocks(i);
      assertThat(ids.length).isGreaterThan(PREFIX_CHARS / 64);
      List<Long> prefix = new ArrayList<>();
      for (int b = 0; b < PREFIX_CHARS / 64; b++) {
        prefix.add(ids[b]);
      }
      prefixes.merge(prefix, 1, Integer::sum);
      for (int b = PREFIX_CHARS / 64; b < ids.length; b++) {
        rest.add(ids[b]);
        restCount++;
      }
    }
    assertThat(prefixes.values()).containsOnly(REQUESTS / CONVERSATIONS).hasSize(CONVERSATIONS);
    assertThat(rest).hasSize(restCount);
  }

  private static int last(Pattern p, String body) {
    Matcher m = p.matcher(body);
    int value = -1;
    while (m.find()) {
      value = Integer.parseInt(m.group(1));
    }
    assertThat(value).as("usage in %s", body).isNotNegative();
    return value;
  }

  private static double mean(List<Integer> values) {
    return values.stream().mapToInt(Integer::intValue).average().orElseThrow();
  }
}
