package dev.pointsman.picker.k8s;

import static dev.pointsman.picker.k8s.K8sObjects.pod;
import static dev.pointsman.picker.k8s.K8sObjects.policy;
import static dev.pointsman.picker.k8s.K8sObjects.pool;
import static dev.pointsman.picker.k8s.K8sObjects.running;
import static dev.pointsman.picker.k8s.PolicyTest.scorer;
import static dev.pointsman.picker.k8s.PolicyTest.spec;
import static dev.pointsman.picker.k8s.PolicyTest.weights;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.k8s.api.PickerPolicy;
import dev.pointsman.picker.k8s.api.PickerPolicySpec;
import dev.pointsman.picker.k8s.api.PickerSpec;
import dev.pointsman.picker.scheduling.Decision;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.SchedulingPolicy;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import dev.pointsman.testing.Await;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Policies flipping through the CRD while many threads schedule against the pool. */
class HotReloadTest {
  private static final Map<String, Double> A = Map.of("queue-scorer", 1.0);
  private static final Map<String, Double> B =
      Map.of("kv-cache-utilization-scorer", 2.0, "prefix-cache-scorer", 3.0);

  @Test
  void everyDecisionUsesOneCompleteValidPolicy() throws Exception {
    try (MockCluster cluster = new MockCluster()) {
      MockCluster.Picker picker = cluster.picker();
      Map<String, String> labels = Map.of("app", "vllm");
      cluster.admin.resource(pool("llama", labels, 8000, 8001)).create();
      for (int i = 1; i <= 3; i++) {
        cluster.admin.resource(running(pod("p" + i, labels), "10.0.0." + i, true)).create();
      }
      cluster.admin.resource(policy("llama", specA())).create();
      Await.until("6 endpoints", () -> picker.datastore.endpoints("llama") == 6);
      Await.until("A in force", () -> weights(picker.registry.policy("llama")).equals(A));
      Runnable scrape =
          () ->
              picker
                  .datastore
                  .pool("llama")
                  .orElseThrow()
                  .endpoints()
                  .forEach(
                      e ->
                          picker.datastore.onSuccess(
                              e.address(),
                              new EndpointMetrics(
                                  1, 2, 0.3, -1, Set.of(), Set.of(), -1, Double.NaN, 0L)));
      scrape.run();

      InFlightTracker inFlight = new InFlightTracker();
      Scheduler scheduler =
          new Scheduler(new PrefixIndex(1000), inFlight, PrefixHasher.DEFAULT, System::nanoTime);
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong decisions = new AtomicLong();
      ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
      ExecutorService load = Executors.newFixedThreadPool(4);
      List<? extends Future<?>> workers =
          java.util.stream.IntStream.range(0, 4)
              .mapToObj(
                  w ->
                      load.submit(
                          () -> {
                            SplittableRandom rng = new SplittableRandom(w);
                            while (!stop.get()) {
                              // a decision reads the pool's policy once
                              SchedulingPolicy policy = picker.registry.policy("llama");
                              Map<String, Double> shape = weights(policy);
                              if (!shape.equals(A) && !shape.equals(B)) {
                                errors.add("incomplete policy " + shape);
                              }
                              try {
                                Decision d =
                                    scheduler.schedule(
                                        SchedulingRequest.of("r", "llama", 100),
                                        picker.datastore.snapshot("llama"),
                                        policy,
                                        rng);
                                if (d instanceof Decision.Picked p) {
                                  p.ticket().release();
                                  decisions.incrementAndGet();
                                } else {
                                  errors.add("not picked: " + d);
                                }
                              } catch (RuntimeException e) {
                                errors.add(e.toString());
                              }
                            }
                          }))
              .toList();
      try {
        for (int flip = 0; flip < 20; flip++) {
          boolean toB = flip % 2 == 0;
          setSpec(cluster, toB ? specB() : specA());
          Map<String, Double> expected = toB ? B : A;
          Await.until(
              "flip " + flip + " in force",
              () -> {
                scrape.run();
                return weights(picker.registry.policy("llama")).equals(expected);
              });
          long before = decisions.get();
          Await.until(
              "decisions under the new policy (errors: " + errors.size() + ")",
              () -> {
                scrape.run(); // the scraper's part: keep the metrics fresh
                return decisions.get() > before + 10 || !errors.isEmpty();
              });
        }
      } finally {
        stop.set(true);
        for (Future<?> f : workers) {
          f.get();
        }
        load.shutdown();
      }
      assertThat(errors).isEmpty();
      assertThat(decisions.get()).isGreaterThan(200);
    }
  }

  private static PickerPolicySpec specA() {
    return spec("llama", List.of(scorer("queue-scorer", 1)), null);
  }

  private static PickerPolicySpec specB() {
    return spec(
        "llama",
        List.of(scorer("kv-cache-utilization-scorer", 2), scorer("prefix-cache-scorer", 3)),
        new PickerSpec("weighted-random-picker", 2, 0.5));
  }

  private static void setSpec(MockCluster cluster, PickerPolicySpec spec) {
    MockCluster.editRetrying(
        cluster.admin.resources(PickerPolicy.class).inNamespace(MockCluster.NS).withName("llama"),
        p -> {
          p.setSpec(spec);
          return p;
        });
  }
}
