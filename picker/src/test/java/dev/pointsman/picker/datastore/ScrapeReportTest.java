package dev.pointsman.picker.datastore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.picker.scheduling.AppProtocol;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scrape.Engine;
import dev.pointsman.picker.scrape.MetricsLocation;
import dev.pointsman.picker.scrape.ScrapeReport;
import dev.pointsman.picker.scrape.ScrapeTarget;
import dev.pointsman.picker.scrape.Signal;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** What the datastore does with a scrape's report: not serving, missing signals, locations. */
class ScrapeReportTest {

  private static final String A = "10.0.0.1:8000";
  private final AtomicLong clock = new AtomicLong(5_000_000_000L);
  private final Datastore store =
      new Datastore(DatastoreConfig.DEFAULT, new InFlightTracker(), clock::get);

  private boolean available() {
    return store.snapshot("p").endpoints().getFirst().available();
  }

  @Test
  void aSleepingEndpointIsUnavailableAtOnceAndBackWhenItWakes() {
    store.setPools(List.of(DatastoreTest.pool("p", Engine.VLLM, A)));
    store.onSuccess(A, DatastoreTest.metrics(0));
    assertThat(available()).isTrue();

    store.onSuccess(A, DatastoreTest.metrics(0), new ScrapeReport(Set.of(), "sleeping", "ok"));
    assertThat(available()).isFalse();
    assertThat(store.report(A).notServing()).isEqualTo("sleeping");

    store.onSuccess(A, DatastoreTest.metrics(0), ScrapeReport.NONE);
    assertThat(available()).isTrue();
  }

  @Test
  void theLastReportIsKeptPerEndpoint() {
    store.setPools(List.of(DatastoreTest.pool("p", Engine.SGLANG, A)));
    assertThat(store.report(A)).isEqualTo(ScrapeReport.NONE);

    store.onSuccess(
        A, DatastoreTest.metrics(1), new ScrapeReport(Set.of(Signal.KV_CAPACITY), null, "ok"));
    store.onFailure(A, "timeout");

    assertThat(store.report(A).missing()).containsExactly(Signal.KV_CAPACITY);
    assertThat(store.report("10.9.9.9:1")).isEqualTo(ScrapeReport.NONE);
  }

  @Test
  void aPoolsMetricsLocationReachesItsScrapeTargetsAndMustAgreeAcrossPools() {
    MetricsLocation triton = new MetricsLocation(null, 9102);
    List<ScrapeTarget> targets = new java.util.ArrayList<>();
    store.addMembershipListener(m -> targets.addAll(m.targets()));
    store.setPools(
        List.of(
            new PoolDefinition(
                "p",
                Engine.TRITON_TRTLLM,
                List.of(new Endpoint(A, "p")),
                AppProtocol.HTTP,
                triton)));

    assertThat(targets).containsExactly(new ScrapeTarget(A, Engine.TRITON_TRTLLM, triton));
    assertThatThrownBy(
            () ->
                store.setPools(
                    List.of(
                        new PoolDefinition(
                            "p",
                            Engine.TRITON_TRTLLM,
                            List.of(new Endpoint(A, "p")),
                            AppProtocol.HTTP,
                            triton),
                        new PoolDefinition(
                            "q", Engine.TRITON_TRTLLM, List.of(new Endpoint(A, "q"))))))
        .hasMessageContaining("metrics location")
        .hasMessageContaining("(expected one metrics location per address)");
  }
}
