package dev.pointsman.picker.recording;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pointsman.extproc.Completion;
import dev.pointsman.extproc.Usage;
import dev.pointsman.inference.model.ModelEntry;
import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.inference.model.ModelsConfig;
import dev.pointsman.inference.model.PoolTarget;
import dev.pointsman.inference.request.ParserLimits;
import dev.pointsman.inference.request.RequestParser;
import dev.pointsman.picker.routing.Objectives;
import dev.pointsman.picker.routing.OneHopRouter;
import dev.pointsman.picker.routing.PolicyRegistry;
import dev.pointsman.picker.routing.RouteInput;
import dev.pointsman.picker.routing.RouteOutcome;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.EndpointState;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.PoolSnapshot;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recorder behind routing: what a recorded line holds, and what it never holds. */
class RecordingRoutingTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ADDRESS = "10.0.0.1:8000";
  private static final String SECRET = "zebra-quasar-7781";
  private static final long MS = 1_000_000L;

  @TempDir Path dir;

  private final AtomicLong clock = new AtomicLong(5_000 * MS);
  private final InFlightTracker inFlight = new InFlightTracker();
  private final Scheduler scheduler =
      new Scheduler(new PrefixIndex(1000), inFlight, PrefixHasher.DEFAULT, clock::get);
  private final PoolSnapshot pool =
      new PoolSnapshot(
          "gpu",
          List.of(
              new EndpointState(
                  new Endpoint(ADDRESS, "gpu", Map.of("gpu", "H100-80")),
                  new EndpointMetrics(0, 4, 0.2, 448_000, Set.of(), Set.of(), 4, Double.NaN, 0),
                  true)));
  private final OneHopRouter router =
      new OneHopRouter(
          () ->
              ModelResolver.of(
                  new ModelsConfig(
                      List.of(new ModelEntry("m", List.of(), null, List.of(PoolTarget.of("gpu")))),
                      null)),
          name -> pool,
          PolicyRegistry.withDefaults(),
          scheduler,
          new Objectives(List.of()),
          () -> new SplittableRandom(1),
          null);
  private final RequestParser parser = new RequestParser(ParserLimits.defaults());

  private static ThreadFactory threads() {
    return r -> new Thread(r, "recorder-test");
  }

  private TrafficRecorder recorder(String salt, int capacity, ThreadFactory threads)
      throws Exception {
    return new TrafficRecorder(
        dir.resolve("traffic.jsonl"),
        1 << 20,
        2,
        capacity,
        salt.getBytes(StandardCharsets.UTF_8),
        threads);
  }

  private RouteInput input(String prompt, Map<String, String> headers) {
    String body =
        "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\""
            + prompt
            + "\"}]}";
    return new RouteInput(
        "r",
        parser.parse("/v1/chat/completions", body.getBytes(StandardCharsets.UTF_8)),
        null,
        null,
        Double.NaN,
        headers::get);
  }

  /** Routes and completes each prompt, 100 ms apart, with the given usage. */
  private List<JsonNode> record(String salt, List<String> prompts, Usage usage) throws Exception {
    TrafficRecorder recorder = recorder(salt, 100, threads());
    RecordingRouting routing = new RecordingRouting(router, recorder, clock::get, "x-tenant");
    for (String prompt : prompts) {
      clock.addAndGet(100 * MS);
      var routed = (RouteOutcome.Routed) routing.route(input(prompt, Map.of("x-tenant", "team-a")));
      routed = routing.served(routed, ADDRESS);
      routing.completed(
          routed, new Completion(200, 10 * MS, 50 * MS, usage, ADDRESS, Completion.End.COMPLETED));
    }
    recorder.close();
    assertThat(routing.live()).isZero();
    assertThat(inFlight.liveRequests()).isZero();
    List<JsonNode> out = new ArrayList<>();
    for (String line : Files.readAllLines(dir.resolve("traffic.jsonl"))) {
      out.add(JSON.readTree(line));
    }
    return out;
  }

  private static List<Long> ids(JsonNode row) {
    List<Long> ids = new ArrayList<>();
    row.path("hash_ids").forEach(n -> ids.add(n.asLong()));
    return ids;
  }

  @Test
  void aLineHoldsArrivalLengthsModelTenantAndBlockIdsInTheMooncakeFormat() throws Exception {
    String prompt = "a".repeat(640);
    List<JsonNode> rows = record("s1", List.of(prompt, prompt), new Usage(200, 42, 0));

    assertThat(rows).hasSize(2);
    JsonNode first = rows.get(0);
    assertThat(first.path("timestamp").asLong()).isEqualTo(100);
    assertThat(rows.get(1).path("timestamp").asLong()).isEqualTo(200);
    assertThat(first.path("input_length").asInt()).isEqualTo(200);
    assertThat(first.path("output_length").asInt()).isEqualTo(42);
    assertThat(first.path("block_tokens").asInt()).isEqualTo(16);
    assertThat(first.path("model").asText()).isEqualTo("m");
    assertThat(first.path("tenant").asText()).isEqualTo("team-a");
    assertThat(first.has("adapter")).isFalse();
    assertThat(ids(first)).hasSize(10).allMatch(id -> id >= 0);
  }

  @Test
  void withoutUsageTheLengthsAreTheEstimateAndZero() throws Exception {
    List<JsonNode> rows = record("s1", List.of("b".repeat(400)), Usage.NONE);
    assertThat(rows.get(0).path("input_length").asInt()).isBetween(95, 110);
    assertThat(rows.get(0).path("output_length").asInt()).isZero();
  }

  @Test
  void noPromptTextEverReachesTheFiles() throws Exception {
    String prompt = (SECRET + " ").repeat(40);
    record("s1", List.of(prompt), new Usage(200, 5, 0));
    try (var files = Files.list(dir)) {
      for (Path f : files.toList()) {
        String content = Files.readString(f);
        assertThat(content).doesNotContain(SECRET).doesNotContain("zebra");
      }
    }
  }

  @Test
  void equalPrefixesShareHashIdsAndTheRestDiffers() throws Exception {
    String shared = "c".repeat(256); // four 64-character blocks
    List<JsonNode> rows =
        record(
            "s1",
            List.of(shared + "d".repeat(128), shared + "e".repeat(128)),
            new Usage(200, 5, 0));
    List<Long> a = ids(rows.get(0));
    List<Long> b = ids(rows.get(1));
    assertThat(a).hasSize(6);
    assertThat(b).hasSize(6);
    assertThat(a.subList(0, 4)).isEqualTo(b.subList(0, 4));
    assertThat(a.subList(4, 6)).doesNotContainAnyElementsOf(b.subList(4, 6));
  }

  @Test
  void anotherSaltGivesOtherIdsForTheSamePrompt() throws Exception {
    String prompt = "f".repeat(320);
    List<Long> one = ids(record("salt-one", List.of(prompt), new Usage(200, 5, 0)).get(0));
    List<Long> two = ids(record("salt-two", List.of(prompt), new Usage(200, 5, 0)).get(0));
    assertThat(one).hasSize(5);
    assertThat(two).hasSize(5).doesNotContainAnyElementsOf(one);
  }

  @Test
  void idsAreCutToTheBlocksTheRecordedLengthCanHold() throws Exception {
    // 640 characters are 10 blocks, but the server counted 50 tokens: at most 4 ids of 16 tokens
    List<JsonNode> rows = record("s1", List.of("g".repeat(640)), new Usage(50, 5, 0));
    assertThat(ids(rows.get(0))).hasSize(4);
  }

  @Test
  void aFullQueueDropsRowsAndCountsThem() throws Exception {
    CountDownLatch go = new CountDownLatch(1);
    ThreadFactory held =
        r ->
            new Thread(
                () -> {
                  try {
                    go.await();
                  } catch (InterruptedException e) {
                    return;
                  }
                  r.run();
                });
    TrafficRecorder recorder = recorder("s1", 2, held);
    for (int i = 0; i < 5; i++) {
      recorder.offer(new TraceRow(i, 10, 1, new long[0], "m", null, null));
    }
    assertThat(recorder.dropped()).isEqualTo(3);
    go.countDown();
    recorder.close();
    assertThat(recorder.written()).isEqualTo(2);
    assertThat(Files.readAllLines(dir.resolve("traffic.jsonl"))).hasSize(2);
  }

  @Test
  void rowsOfferedFromManyThreadsAreEachWrittenOrCountedAsDropped() throws Exception {
    TrafficRecorder recorder = recorder("s1", 64, threads());
    int threads = 8;
    int each = 500;
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> senders = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      Thread sender =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  return;
                }
                for (int i = 0; i < each; i++) {
                  recorder.offer(new TraceRow(i, 32, 1, new long[] {id, i}, "m", null, "t" + id));
                }
              });
      sender.start();
      senders.add(sender);
    }
    start.countDown();
    for (Thread sender : senders) {
      sender.join();
    }
    recorder.close();

    List<String> lines = Files.readAllLines(dir.resolve("traffic.jsonl"));
    assertThat(recorder.written() + recorder.dropped()).isEqualTo((long) threads * each);
    assertThat(lines).hasSize((int) recorder.written());
    for (String line : lines) {
      assertThat(JSON.readTree(line).path("hash_ids")).hasSize(2); // whole lines, never torn
    }
  }

  @Test
  void aGeneratedSaltIsWrittenBesideTheFileAndReused() {
    Path file = Salt.fileFor(dir.resolve("traffic.jsonl"));
    byte[] first = Salt.load(null, file, new SplittableRandom(7));
    byte[] again = Salt.load(null, file, new SplittableRandom(8));
    assertThat(first).hasSize(32).isEqualTo(again);
    assertThat(file.getFileName().toString()).isEqualTo("traffic.jsonl.salt");
    assertThat(Salt.load("configured", file, new SplittableRandom(9)))
        .isEqualTo("configured".getBytes(StandardCharsets.UTF_8));
  }
}
