package dev.pointsman.picker.summary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.inference.model.ModelsConfig;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.Saturation;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.ClientCalls;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The summary as a reader gets it: through gRPC, JSON-encoded, the latest refresh. */
class SummaryServiceTest {
  private final AtomicReference<List<String>> pools = new AtomicReference<>(List.of());
  private final SummaryService service =
      new SummaryService(
          new SummaryBuilder(
              "west",
              500,
              100,
              new SummaryBuilder.Sources(
                  pools::get,
                  dev.pointsman.picker.scheduling.PoolSnapshot::empty,
                  p -> Saturation.DEFAULT,
                  () -> ModelResolver.of(new ModelsConfig(List.of(), null))),
              new Scheduler(
                  new PrefixIndex(10), new InFlightTracker(), PrefixHasher.DEFAULT, () -> 0L),
              new HotPrefixes(1)),
          InstantSource.fixed(Instant.ofEpochMilli(42)));
  private Server server;
  private ManagedChannel channel;

  private ClusterSummary get() throws Exception {
    if (server == null) {
      String name = InProcessServerBuilder.generateName();
      server = InProcessServerBuilder.forName(name).addService(service).build().start();
      channel = InProcessChannelBuilder.forName(name).build();
    }
    return ClientCalls.blockingUnaryCall(
        channel,
        SummaryProtocol.GET,
        io.grpc.CallOptions.DEFAULT,
        new SummaryProtocol.SummaryRequest("test"));
  }

  @AfterEach
  void stop() {
    if (channel != null) {
      channel.shutdownNow();
      server.shutdownNow();
    }
  }

  @Test
  void beforeTheFirstRefreshAReaderIsToldToComeBack() {
    assertThatThrownBy(this::get)
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
  }

  @Test
  void eachRefreshIsServedWholeWithTheNextSequence() throws Exception {
    pools.set(List.of("a"));
    service.refresh();
    ClusterSummary first = get();
    pools.set(List.of("a", "b"));
    service.refresh();

    ClusterSummary second = get();

    assertThat(first.sequence()).isEqualTo(1);
    assertThat(first.pools()).extracting(PoolSummary::pool).containsExactly("a");
    assertThat(second.sequence()).isEqualTo(2);
    assertThat(second.pools()).extracting(PoolSummary::pool).containsExactly("a", "b");
    assertThat(second.cluster()).isEqualTo("west");
    assertThat(second.generatedAtMillis()).isEqualTo(42);
    assertThat(second.referencePromptTokens()).isEqualTo(500);
    assertThat(second.intervalMillis()).isEqualTo(100);
  }

  @Test
  void aFailedRefreshKeepsTheLastSummary() throws Exception {
    pools.set(List.of("a"));
    service.refresh();
    pools.set(null); // the source fails

    service.refresh();

    assertThat(get().sequence()).isEqualTo(1);
  }
}
