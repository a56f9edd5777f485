package dev.pointsman.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.extproc.testing.Replies;
import dev.pointsman.inference.error.OpenAiError;
import dev.pointsman.inference.request.ParsedRequest;
import dev.pointsman.inference.request.ParserLimits;
import dev.pointsman.inference.request.RequestParser;
import dev.pointsman.testing.Await;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A handler that defers its verdict: the stream holds every reply until the verdict arrives from
 * another thread, then answers as a synchronous verdict would; a stream that ends first abandons
 * the wait, and a forward that still arrives is ended at once.
 */
class DeferredVerdictTest {
  private final CompletableFuture<Verdict> verdict = new CompletableFuture<>();
  private final AtomicInteger abandoned = new AtomicInteger();
  private final List<Completion> ends = new CopyOnWriteArrayList<>();
  private Server server;
  private ManagedChannel channel;

  @BeforeEach
  void setUp() throws Exception {
    ExtProcHandler handler =
        new ExtProcHandler() {
          @Override
          public Verdict decide(RequestHead head, ParsedRequest body) {
            return new Verdict.Deferred(verdict, abandoned::incrementAndGet);
          }

          @Override
          public String modelsJson() {
            return "{}";
          }

          @Override
          public String modelJson(String id) {
            return "{}";
          }
        };
    String name = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(name)
            .directExecutor()
            .addService(
                new ExternalProcessorService(
                    handler,
                    new RequestParser(ParserLimits.defaults()),
                    ExtProcSettings.DEFAULTS,
                    ExtProcEvents.NOOP,
                    System::nanoTime))
            .build()
            .start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
  }

  @AfterEach
  void tearDown() throws Exception {
    channel.shutdownNow();
    server.shutdownNow();
    server.awaitTermination(5, TimeUnit.SECONDS);
  }

  private EnvoyReplay held() {
    EnvoyReplay s = EnvoyReplay.open(channel).requestHeaders("POST", "/v1/chat/completions", false);
    s.requestBody(Replies.chat("m", "hi", false), true);
    assertThat(s.drainNow()).isEmpty();
    return s;
  }

  private Verdict.Forward forward() {
    return new Verdict.Forward(
        Map.of("x-gateway-destination-endpoint", "10.0.0.1:8000"), "10.0.0.1:8000", ends::add);
  }

  @Test
  void aForwardFromAnotherThreadSendsTheHeldRepliesInOrder() throws Exception {
    EnvoyReplay s = held();

    Thread t = new Thread(() -> verdict.complete(forward()));
    t.start();
    t.join();

    List<ProcessingResponse> replies = s.next(2);
    assertThat(Replies.setHeaders(replies.get(0).getRequestHeaders().getResponse()))
        .containsEntry("x-gateway-destination-endpoint", "10.0.0.1:8000");
    assertThat(Replies.echoedChunk(replies.get(1)).getEndOfStream()).isTrue();
    assertThat(abandoned).hasValue(0);
  }

  @Test
  void aRejectAnswersWithTheError() {
    EnvoyReplay s = held();

    verdict.complete(
        new Verdict.Reject(
            new OpenAiError(429, "busy", "rate_limit_error", "queue_timeout"), "flow_ttl", 1));

    Replies.assertError(s.next(), 429, "queue_timeout");
    assertThat(s.awaitEnd()).isTrue();
  }

  @Test
  void aFailedVerdictIsAnInternalError() {
    EnvoyReplay s = held();

    verdict.completeExceptionally(new IllegalStateException("boom"));

    Replies.assertError(s.next(), 500, "internal");
  }

  @Test
  void aStreamResetWhileWaitingAbandonsTheWaitAndALateForwardIsEndedAtOnce() {
    EnvoyReplay s = held();

    s.cancel();
    Await.until("the wait is abandoned", () -> abandoned.get() == 1);
    verdict.complete(forward());

    assertThat(ends)
        .singleElement()
        .extracting(Completion::end)
        .isEqualTo(Completion.End.CANCELLED);
  }
}
