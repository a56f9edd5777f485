package dev.pointsman.picker.k8s;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Competes for the status Lease for as long as it is open: a replica that loses the Lease (or never
 * had it) keeps trying, so one replica writes status whenever any is alive. Serving does not depend
 * on it: every replica serves.
 */
final class Leadership implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Leadership.class);

  private final KubernetesClient client;
  private final KubernetesSettings settings;
  private final Consumer<Boolean> onChange;
  private final ScheduledExecutorService executor;
  private volatile CompletableFuture<?> running;
  private volatile boolean closed;

  Leadership(
      KubernetesClient client,
      KubernetesSettings settings,
      Consumer<Boolean> onChange,
      ScheduledExecutorService executor) {
    this.client = client;
    this.settings = settings;
    this.onChange = onChange;
    this.executor = executor;
  }

  void start() {
    if (closed) {
      return;
    }
    var config =
        new LeaderElectionConfigBuilder()
            .withName(settings.leaseName())
            .withLock(
                new LeaseLock(settings.namespace(), settings.leaseName(), settings.identity()))
            .withLeaseDuration(settings.leaseDuration())
            .withRenewDeadline(settings.renewDeadline())
            .withRetryPeriod(settings.retryPeriod())
            .withReleaseOnCancel(true)
            .withLeaderCallbacks(
                new LeaderCallbacks(
                    () -> onChange.accept(true),
                    () -> onChange.accept(false),
                    leader -> LOG.info("status Lease held by {}", leader)))
            .build();
    CompletableFuture<?> f = client.leaderElector().withConfig(config).build().start();
    running = f;
    f.whenComplete(
        (ok, error) -> {
          onChange.accept(false);
          if (!closed && !executor.isShutdown()) {
            executor.schedule(
                this::start, settings.retryPeriod().toMillis(), TimeUnit.MILLISECONDS);
          }
        });
  }

  @Override
  public void close() {
    closed = true;
    CompletableFuture<?> f = running;
    if (f != null) {
      f.cancel(true);
    }
  }
}
