package dev.pointsman.cli.demo;

import dev.pointsman.runtime.Pem;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Plays a planned request stream against the gateway over HTTPS (HTTP/2) and measures each
 * request's time to first token as a client sees it: from sending to the first SSE event.
 */
final class DemoClient {
  /** What one phase measured. */
  record Outcome(List<Double> ttftMs, int failed, Map<String, Integer> servedBy, double seconds) {}

  private final HttpClient http;
  private final URI url;

  DemoClient(URI base, String certificatePem) throws Exception {
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    List<X509Certificate> certs = Pem.readCertificates(certificatePem);
    for (int i = 0; i < certs.size(); i++) {
      trust.setCertificateEntry("gateway-" + i, certs.get(i));
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext ssl = SSLContext.getInstance("TLS");
    ssl.init(null, tmf.getTrustManagers(), null);
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_2)
            .sslContext(ssl)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    this.url = base.resolve("/v1/chat/completions");
  }

  Outcome play(List<DemoTraffic.Planned> plan, Consumer<Map<String, Integer>> everySecond)
      throws InterruptedException {
    ConcurrentLinkedQueue<Double> ttft = new ConcurrentLinkedQueue<>();
    ConcurrentHashMap<String, Integer> served = new ConcurrentHashMap<>();
    AtomicInteger failed = new AtomicInteger();
    CountDownLatch done = new CountDownLatch(plan.size());
    long start = System.nanoTime();
    ScheduledExecutorService pacer = Executors.newSingleThreadScheduledExecutor();
    try (ExecutorService requests = Executors.newVirtualThreadPerTaskExecutor()) {
      pacer.scheduleAtFixedRate(() -> everySecond.accept(served), 1, 1, TimeUnit.SECONDS);
      for (DemoTraffic.Planned p : plan) {
        pacer.schedule(
            () ->
                requests.submit(
                    () -> {
                      try {
                        send(p, ttft, served, failed);
                      } finally {
                        done.countDown();
                      }
                    }),
            (long) (p.atMs() * 1_000),
            TimeUnit.MICROSECONDS);
      }
      done.await(10, TimeUnit.MINUTES);
    } finally {
      pacer.shutdownNow();
    }
    everySecond.accept(served);
    return new Outcome(List.copyOf(ttft), failed.get(), served, (System.nanoTime() - start) / 1e9);
  }

  private void send(
      DemoTraffic.Planned p,
      ConcurrentLinkedQueue<Double> ttft,
      ConcurrentHashMap<String, Integer> served,
      AtomicInteger failed) {
    HttpRequest request =
        HttpRequest.newBuilder(url)
            .header("content-type", "application/json")
            .timeout(Duration.ofSeconds(120))
            .POST(HttpRequest.BodyPublishers.ofString(p.body()))
            .build();
    long sent = System.nanoTime();
    try {
      HttpResponse<InputStream> r = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
      try (BufferedReader in =
          new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
        if (r.statusCode() != 200) {
          failed.incrementAndGet();
          return;
        }
        String line;
        boolean first = true;
        while ((line = in.readLine()) != null) {
          if (first && line.startsWith("data:")) {
            ttft.add((System.nanoTime() - sent) / 1e6);
            first = false;
          }
        }
        r.headers()
            .firstValue("x-pointsman-served-by")
            .ifPresent(pod -> served.merge(pod, 1, Integer::sum));
      }
    } catch (Exception e) {
      failed.incrementAndGet();
    }
  }

  /** Sends one request and returns its status, for the serve phase's self-check. */
  int probe(String body) throws Exception {
    return http.send(
            HttpRequest.newBuilder(url)
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }
}
