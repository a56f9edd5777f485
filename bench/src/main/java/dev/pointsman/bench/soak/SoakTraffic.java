package dev.pointsman.bench.soak;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The soak's client: a mix of what a gateway meets in a day, sent to its plaintext HTTP/1.1
 * listener at a fixed mean rate (Poisson arrivals) for a given time. Streamed chat behind shared
 * system prompts, a LoRA adapter, plain completions, embeddings, long documents, clients that hang
 * up after the first token or halfway through sending, and requests the gateway must refuse
 * (malformed JSON, an unknown model, a path outside the inference API). It prints, once a minute
 * and at the end, each kind's answers by status, so that a refused kind answered 200 or a good kind
 * answered anything else shows.
 *
 * <p>Usage: {@code SoakTraffic BASE_URL RATE SECONDS [SEED]}, e.g. {@code SoakTraffic
 * http://127.0.0.1:8443 20 1800}. Requests in flight are bounded (256); an arrival that finds no
 * room is counted as {@code skipped}, never queued, so a slow gateway cannot build a backlog here.
 */
public final class SoakTraffic {
  private static final String MODEL = "llama";
  private static final String ADAPTER = "sql-lora";
  private static final int MAX_IN_FLIGHT = 256;

  /** Tenants, each behind its own long system prompt (a shared prefix for the prefix index). */
  private static final int TENANTS = 8;

  /** What one request is, and what its answer should be. */
  enum Kind {
    CHAT_STREAM(48, 200),
    CHAT_ADAPTER(12, 200),
    COMPLETION(10, 200),
    EMBEDDING(5, 200),
    LONG_DOCUMENT(3, 200),
    HANG_UP_AFTER_FIRST_TOKEN(6, 200),
    HANG_UP_MID_BODY(4, -1),
    MALFORMED_JSON(4, 400),
    UNKNOWN_MODEL(4, 404),
    OUTSIDE_THE_API(4, 404);

    final int weight;

    /** The status it should get, or -1 when the client leaves before any. */
    final int expected;

    Kind(int weight, int expected) {
      this.weight = weight;
      this.expected = expected;
    }
  }

  private final HttpClient http;
  private final URI base;
  private final String[] systemPrompts = new String[TENANTS];
  private final String document;
  private final Map<String, LongAdder> answers = new ConcurrentHashMap<>();
  private final LongAdder skipped = new LongAdder();
  private final LongAdder sent = new LongAdder();
  private final LongAdder unexpected = new LongAdder();
  private final Semaphore room = new Semaphore(MAX_IN_FLIGHT);

  private SoakTraffic(URI base, long seed) {
    this.base = base;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int i = 0; i < TENANTS; i++) {
      StringBuilder sb = new StringBuilder("Tenant " + i + " policy. ");
      while (sb.length() < 3_000) {
        sb.append("Rule ").append(rnd.nextInt(1000)).append(": answer precisely and calmly. ");
      }
      systemPrompts[i] = sb.toString();
    }
    StringBuilder doc = new StringBuilder("Document: ");
    while (doc.length() < 120_000) {
      doc.append("Clause ").append(doc.length()).append(" sets out what each party owes. ");
    }
    this.document = doc.toString();
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 3) {
      System.err.println("usage: SoakTraffic BASE_URL RATE SECONDS [SEED]");
      System.exit(2);
    }
    URI base = URI.create(args[0]);
    double rate = Double.parseDouble(args[1]);
    long seconds = Long.parseLong(args[2]);
    long seed = args.length > 3 ? Long.parseLong(args[3]) : 1;
    new SoakTraffic(base, seed).run(rate, seconds, seed);
  }

  private void run(double rate, long seconds, long seed) throws InterruptedException {
    SplittableRandom rnd = new SplittableRandom(seed * 31 + 7);
    long start = System.nanoTime();
    long end = start + TimeUnit.SECONDS.toNanos(seconds);
    CountDownLatch over = new CountDownLatch(1);
    ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
    try (ExecutorService requests = Executors.newVirtualThreadPerTaskExecutor()) {
      clock.scheduleAtFixedRate(
          () -> report("minute " + TimeUnit.NANOSECONDS.toMinutes(System.nanoTime() - start)),
          1,
          1,
          TimeUnit.MINUTES);
      new Arrivals(rnd, rate, start, end, clock, requests, over).next();
      over.await();
      room.acquire(MAX_IN_FLIGHT); // every request answered or failed
      room.release(MAX_IN_FLIGHT);
    } finally {
      clock.shutdownNow();
    }
    report("end, " + sent.sum() + " sent");
  }

  /** Poisson arrivals, each scheduled on the clock when the one before it is sent. */
  private final class Arrivals {
    private final SplittableRandom rnd;
    private final double rate;
    private final long start;
    private final long end;
    private final ScheduledExecutorService clock;
    private final ExecutorService requests;
    private final CountDownLatch over;
    private final int totalWeight = Arrays.stream(Kind.values()).mapToInt(k -> k.weight).sum();
    private double at;

    Arrivals(
        SplittableRandom rnd,
        double rate,
        long start,
        long end,
        ScheduledExecutorService clock,
        ExecutorService requests,
        CountDownLatch over) {
      this.rnd = rnd;
      this.rate = rate;
      this.start = start;
      this.end = end;
      this.clock = clock;
      this.requests = requests;
      this.over = over;
    }

    /** Schedules the next arrival, or ends the run when it would come after its end. */
    void next() {
      at += -Math.log(1 - rnd.nextDouble()) / rate;
      long due = start + (long) (at * 1e9);
      if (due >= end) {
        over.countDown();
        return;
      }
      clock.schedule(this::arrive, due - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    private void arrive() {
      Kind kind = pick(rnd.nextInt(totalWeight));
      String body = body(kind, rnd, sent.sum());
      sent.increment();
      if (room.tryAcquire()) {
        requests.submit(
            () -> {
              try {
                count(kind, send(kind, body));
              } finally {
                room.release();
              }
            });
      } else {
        skipped.increment();
      }
      next();
    }
  }

  private static Kind pick(int r) {
    for (Kind k : Kind.values()) {
      if (r < k.weight) {
        return k;
      }
      r -= k.weight;
    }
    throw new IllegalStateException("weights");
  }

  private String body(Kind kind, SplittableRandom rnd, long n) {
    String system = systemPrompts[rnd.nextInt(systemPrompts.length)];
    String question =
        "Question " + n + " (" + Long.toHexString(rnd.nextLong()) + "): what about case " + n + "?";
    return switch (kind) {
      case CHAT_STREAM, HANG_UP_AFTER_FIRST_TOKEN, HANG_UP_MID_BODY ->
          chat(MODEL, system, question);
      case CHAT_ADAPTER -> chat(ADAPTER, system, question);
      case LONG_DOCUMENT -> chat(MODEL, document, question);
      case COMPLETION ->
          "{\"model\":\"" + MODEL + "\",\"max_tokens\":16,\"prompt\":\"" + question + "\"}";
      case EMBEDDING -> "{\"model\":\"" + MODEL + "\",\"input\":[\"" + question + "\"]}";
      case MALFORMED_JSON -> "{\"model\":\"" + MODEL + "\",\"messages\":[{\"role\":";
      case UNKNOWN_MODEL -> chat("no-such-model-" + (n % 1000), system, question);
      case OUTSIDE_THE_API -> chat(MODEL, system, question);
    };
  }

  private static String chat(String model, String system, String user) {
    return "{\"model\":\""
        + model
        + "\",\"stream\":true,\"max_tokens\":24,\"messages\":[{\"role\":\"system\",\"content\":\""
        + system
        + "\"},{\"role\":\"user\",\"content\":\""
        + user
        + "\"}]}";
  }

  private String path(Kind kind) {
    return switch (kind) {
      case COMPLETION -> "/v1/completions";
      case EMBEDDING -> "/v1/embeddings";
      case OUTSIDE_THE_API -> "/admin/reload";
      default -> "/v1/chat/completions";
    };
  }

  /** Sends one request and returns what came back: its status, or what went wrong. */
  private String send(Kind kind, String body) {
    HttpRequest request =
        HttpRequest.newBuilder(base.resolve(path(kind)))
            .header("content-type", "application/json")
            .timeout(Duration.ofSeconds(120))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    try {
      if (kind == Kind.HANG_UP_MID_BODY) {
        return halfABody(body);
      }
      HttpResponse<InputStream> r = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
      try (InputStream in = r.body()) {
        if (kind == Kind.HANG_UP_AFTER_FIRST_TOKEN && r.statusCode() == 200) {
          in.read(new byte[64]); // the first bytes of the stream, then the client is gone
          return "200 (hung up)";
        }
        byte[] answer = in.readAllBytes();
        if (r.statusCode() >= 400
            && !new String(answer, StandardCharsets.UTF_8).contains("error")) {
          return r.statusCode() + " without an error body";
        }
        return Integer.toString(r.statusCode());
      }
    } catch (Exception e) {
      return e.getClass().getSimpleName();
    }
  }

  /**
   * Sends the first half of {@code body}, then fails the upload: the connection goes with it, as
   * when a client dies mid-request. The gateway and the picker see a request whose body never ends.
   */
  private String halfABody(String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    Flow.Publisher<ByteBuffer> half =
        subscriber ->
            subscriber.onSubscribe(
                new Flow.Subscription() {
                  private boolean sent;

                  @Override
                  public void request(long n) {
                    if (!sent) {
                      sent = true;
                      subscriber.onNext(ByteBuffer.wrap(bytes, 0, bytes.length / 2));
                      subscriber.onError(new IOException("the client went away"));
                    }
                  }

                  @Override
                  public void cancel() {}
                });
    HttpRequest request =
        HttpRequest.newBuilder(base.resolve(path(Kind.HANG_UP_MID_BODY)))
            .header("content-type", "application/json")
            .timeout(Duration.ofSeconds(120))
            .POST(HttpRequest.BodyPublishers.fromPublisher(half, bytes.length))
            .build();
    try {
      return "answered " + http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return "hung up";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }

  private void count(Kind kind, String outcome) {
    answers.computeIfAbsent(kind + " " + outcome, k -> new LongAdder()).increment();
    if (kind.expected > 0 && !outcome.startsWith(Integer.toString(kind.expected))) {
      unexpected.increment();
    }
  }

  private void report(String when) {
    Map<String, Long> sorted = new TreeMap<>();
    answers.forEach((k, v) -> sorted.put(k, v.sum()));
    StringBuilder sb = new StringBuilder("soak " + when + ":");
    sorted.forEach((k, v) -> sb.append("\n  ").append(k).append(": ").append(v));
    sb.append("\n  skipped (no room): ").append(skipped.sum());
    sb.append("\n  not the status its kind expects: ").append(unexpected.sum());
    System.out.println(sb);
  }
}
