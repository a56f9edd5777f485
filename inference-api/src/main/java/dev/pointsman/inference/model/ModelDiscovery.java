package dev.pointsman.inference.model;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Learns which base model and LoRA adapters each pool serves from its {@code /v1/models}, and
 * publishes a resolver that knows them. A pool that does not answer keeps what was last learned.
 * Requests never wait for discovery: they read the resolver in force.
 */
public final class ModelDiscovery implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ModelDiscovery.class);

  private final List<Source> sources;
  private final HttpClient http;
  private final Duration timeout;
  private final AtomicReference<ModelResolver> resolver;
  private ScheduledFuture<?> task;

  /**
   * One pool to ask.
   *
   * @param pool the pool's name
   * @param url its {@code /v1/models} URL (any one endpoint or a Service in front of the pool)
   */
  public record Source(String pool, URI url) {
    public Source {
      Objects.requireNonNull(pool, "pool");
      Objects.requireNonNull(url, "url");
      if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme())) {
        throw new IllegalArgumentException("url: '" + url + "' (expected an http(s) URL)");
      }
    }
  }

  public ModelDiscovery(
      List<Source> sources,
      HttpClient http,
      Duration timeout,
      AtomicReference<ModelResolver> resolver) {
    this.sources = List.copyOf(sources);
    this.http = http;
    this.timeout = timeout;
    this.resolver = resolver;
  }

  /** Polls every {@code interval} on {@code executor}, starting at once. */
  public synchronized ModelDiscovery start(ScheduledExecutorService executor, Duration interval) {
    if (!sources.isEmpty() && task == null) {
      task =
          executor.scheduleWithFixedDelay(
              this::pollOnce, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }
    return this;
  }

  /** Asks every pool once; returns how many answered. */
  public int pollOnce() {
    int ok = 0;
    for (Source s : sources) {
      try {
        HttpResponse<byte[]> r =
            http.send(
                HttpRequest.newBuilder(s.url()).timeout(timeout).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() != 200) {
          log.debug("model discovery: {} answered {}", s.url(), r.statusCode());
          continue;
        }
        DiscoveredModels found = DiscoveredModels.fromModelsList(r.body());
        resolver.updateAndGet(current -> current.withDiscovered(s.pool(), found));
        ok++;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return ok;
      } catch (Exception e) {
        log.debug("model discovery: {} failed: {}", s.url(), e.toString());
      }
    }
    return ok;
  }

  @Override
  public synchronized void close() {
    if (task != null) {
      task.cancel(true);
    }
  }
}
