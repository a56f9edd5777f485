package dev.pointsman.bench.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class JvmCountersTest {
  @Test
  void whatTheStandInPodsSpendIsCountedApartFromEverythingElse() throws Exception {
    HttpServer pod = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    pod.createContext(
        "/metrics",
        ex -> {
          byte[] body = new byte[64 * 1024]; // what the pod's side of one scrape allocates
          ex.sendResponseHeaders(200, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    pod.start();
    try (HttpClient client = HttpClient.newHttpClient()) {
      JvmCounters counters = new JvmCounters();
      JvmCounters.Snapshot before = counters.read();
      URI uri = URI.create("http://127.0.0.1:" + pod.getAddress().getPort() + "/metrics");
      for (int i = 0; i < 100; i++) {
        try (InputStream in =
            client
                .send(
                    HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofInputStream())
                .body()) {
          in.readAllBytes();
        }
      }
      JvmCounters.Snapshot after = counters.read();

      long pods = after.podsAllocatedBytes() - before.podsAllocatedBytes();
      assertThat(pods).isGreaterThanOrEqualTo(100L * 64 * 1024);
      assertThat(after.allocatedBytes() - before.allocatedBytes()).isGreaterThan(pods);
      assertThat(after.podsCpuNanos()).isGreaterThan(before.podsCpuNanos());
      assertThat(after.executorAllocatedBytes()).isEqualTo(before.executorAllocatedBytes());
    } finally {
      pod.stop(0);
    }
  }
}
