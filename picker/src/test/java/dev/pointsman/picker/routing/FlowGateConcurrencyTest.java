package dev.pointsman.picker.routing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.extproc.Completion;
import dev.pointsman.extproc.Usage;
import dev.pointsman.inference.model.ModelEntry;
import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.inference.model.ModelsConfig;
import dev.pointsman.inference.model.PoolTarget;
import dev.pointsman.inference.request.ParserLimits;
import dev.pointsman.inference.request.RequestParser;
import dev.pointsman.picker.flowcontrol.FlowLimits;
import dev.pointsman.picker.flowcontrol.FlowListener;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.EndpointState;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.PoolSnapshot;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Many threads submit, cancel and complete requests while the gate pumps on its executor: every
 * request ends exactly once (routed, refused or cancelled), nothing stays queued, and no in-flight
 * hold leaks.
 */
class FlowGateConcurrencyTest {
  private final InFlightTracker inFlight = new InFlightTracker();

  @Test
  void everyRequestEndsOnceAndNoHoldLeaks() throws Exception {
    PoolSnapshot pool =
        new PoolSnapshot(
            "gpu",
            List.of(
                new EndpointState(
                    new Endpoint("10.0.0.1:8000", "gpu"),
                    new EndpointMetrics(0, 0, 0.1, 100_000, Set.of(), Set.of(), 4, Double.NaN, 0),
                    true)));
    OneHopRouter router =
        new OneHopRouter(
            () ->
                ModelResolver.of(
                    new ModelsConfig(
                        List.of(
                            new ModelEntry("m", List.of(), null, List.of(PoolTarget.of("gpu")))),
                        null)),
            name -> pool,
            PolicyRegistry.withDefaults(),
            new Scheduler(new PrefixIndex(1000), inFlight, PrefixHasher.DEFAULT, System::nanoTime),
            Objectives.none(),
            () -> new SplittableRandom(1),
            null);
    ExecutorService dispatch = Executors.newSingleThreadExecutor();
    ExecutorService clients = Executors.newFixedThreadPool(8);
    FlowGate gate =
        new FlowGate(
            router,
            new FlowLimits(10_000, 1L << 30, TimeUnit.SECONDS.toNanos(60)),
            dispatch,
            System::nanoTime,
            FlowListener.NONE);
    RequestParser parser = new RequestParser(ParserLimits.defaults());
    byte[] body =
        "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"
            .getBytes(StandardCharsets.UTF_8);
    int n = 2_000;
    CountDownLatch ended = new CountDownLatch(n);
    List<CompletableFuture<RouteOutcome>> all = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int id = i;
      CompletableFuture<RouteOutcome> f =
          CompletableFuture.supplyAsync(
                  () ->
                      gate.submit(
                          new RouteInput(
                              "r" + id,
                              parser.parse("/v1/chat/completions", body),
                              null,
                              null,
                              Double.NaN,
                              "t" + (id % 3),
                              Double.NaN,
                              body.length)),
                  clients)
              .thenCompose(
                  pending -> {
                    if (id % 5 == 0) {
                      pending.cancel(false); // the stream went away
                      gate.poke();
                    }
                    return pending;
                  });
      f.whenCompleteAsync(
          (o, e) -> {
            if (o instanceof RouteOutcome.Routed r) {
              gate.completed(
                  r, new Completion(200, 1, 2, Usage.NONE, null, Completion.End.COMPLETED));
            }
            ended.countDown();
          },
          clients);
      all.add(f);
    }

    assertThat(ended.await(30, TimeUnit.SECONDS)).isTrue();
    clients.shutdown();
    dispatch.shutdown();
    assertThat(dispatch.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    gate.pump();
    assertThat(gate.waiting()).isZero();
    assertThat(inFlight.liveRequests()).isZero();
    assertThat(all).allMatch(CompletableFuture::isDone);
  }
}
