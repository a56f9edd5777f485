package dev.pointsman.bench.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.bench.scrape.ExpositionServer;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

class JvmCountersTest {
  @Test
  void whatTheStandInPodsSpendIsCountedApartFromEverythingElse() throws Exception {
    try (ExpositionServer pod = new ExpositionServer(List.of(new byte[64 * 1024]), 1);
        HttpClient client = HttpClient.newHttpClient()) {
      String base = "http://127.0.0.1:" + pod.ports().getFirst();
      JvmCounters counters = new JvmCounters();
      JvmCounters.Snapshot before = counters.read();
      for (int i = 0; i < 100; i++) {
        try (InputStream in =
            client
                .send(
                    HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofInputStream())
                .body()) {
          assertThat(in.readAllBytes()).hasSize(64 * 1024);
        }
      }
      JvmCounters.Snapshot after = counters.read();

      long pods = after.podsAllocatedBytes() - before.podsAllocatedBytes();
      // the client read 100 × 64 KB into arrays on this thread: counted in the process, not the
      // pods
      assertThat(after.allocatedBytes() - before.allocatedBytes() - pods)
          .isGreaterThanOrEqualTo(100L * 64 * 1024);
      assertThat(after.podsCpuNanos()).isGreaterThan(before.podsCpuNanos());
      assertThat(after.executorAllocatedBytes()).isEqualTo(before.executorAllocatedBytes());

      HttpResponse<Void> models =
          client.send(
              HttpRequest.newBuilder(URI.create(base + "/v1/models")).build(),
              HttpResponse.BodyHandlers.discarding());
      assertThat(models.statusCode()).as("only /metrics is served").isEqualTo(404);
    }
  }
}
