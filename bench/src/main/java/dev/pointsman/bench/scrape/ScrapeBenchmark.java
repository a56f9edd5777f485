package dev.pointsman.bench.scrape;

import dev.pointsman.picker.scrape.Engine;
import dev.pointsman.picker.scrape.Mapping;
import dev.pointsman.picker.scrape.MetricsMapper;
import dev.pointsman.picker.scrape.ParseResult;
import dev.pointsman.picker.scrape.ScrapeHttp;
import dev.pointsman.picker.scrape.ScrapeTarget;
import dev.pointsman.picker.scrape.Scraper;
import dev.pointsman.picker.scrape.ScraperConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One scrape of a real vLLM exposition, end to end and in parts: {@code scraper} is the picker's
 * full path (a GET on its keep-alive loopback connection to an in-process Netty server serving the
 * capture, parse, map, report); {@code jdkHttpClient} the same GET through {@code java.net.http}
 * (the client the scraper used before), then the same parse and map; {@code parseAndMap} the parse
 * and map alone. The HTTP figures are round trips and include the server's work; the load harness
 * {@link ScrapeLoad} gives the scraper's own CPU.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ScrapeBenchmark {

  /** The exposition served, as bytes. */
  @State(Scope.Benchmark)
  public static class Body {
    @Param({"vllm-v1-2026-04-rh-workshop-head40.prom", "vllm-0.7-v0-aibrix-runtime.prom"})
    public String capture;

    byte[] bytes;

    @Setup
    public void read() throws Exception {
      bytes = Files.readAllBytes(Path.of("/work/shared/engine-captures", capture));
    }
  }

  /** Parse and map on their own. */
  @State(Scope.Thread)
  public static class Parsing {
    final MetricsMapper mapper = Engine.VLLM.newMapper();
  }

  /** An exposition server and the picker's scraper, on one target. */
  @State(Scope.Benchmark)
  public static class Picker {
    ExpositionServer server;
    ScrapeHttp http;
    Scraper scraper;
    String address;

    @Setup(Level.Trial)
    public void start(Body body) {
      server = new ExpositionServer(body.bytes, 1, 1);
      address = "127.0.0.1:" + server.ports().getFirst();
      http = ScrapeHttp.create(Duration.ofSeconds(1));
      ScraperConfig config =
          new ScraperConfig(Duration.ofHours(1), Duration.ofSeconds(1), 8, null)
              .withModelsInterval(Duration.ZERO);
      scraper =
          new Scraper(
              config,
              http,
              http.executor(),
              System::nanoTime,
              new ScrapeLoad.Counts(),
              new ScrapeLoad.Counts());
      scraper.setTargets(List.of(new ScrapeTarget(address, Engine.VLLM)));
    }

    @TearDown(Level.Trial)
    public void stop() {
      scraper.close();
      http.close();
      server.close();
    }
  }

  /** An exposition server and a {@code java.net.http} client. */
  @State(Scope.Benchmark)
  public static class Jdk {
    ExpositionServer server;
    HttpClient client;
    HttpRequest request;
    final MetricsMapper mapper = Engine.VLLM.newMapper();

    @Setup(Level.Trial)
    public void start(Body body) {
      server = new ExpositionServer(body.bytes, 1, 1);
      client =
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_1_1)
              .connectTimeout(Duration.ofSeconds(1))
              .build();
      request =
          HttpRequest.newBuilder(
                  URI.create("http://127.0.0.1:" + server.ports().getFirst() + "/metrics"))
              .timeout(Duration.ofSeconds(1))
              .header("Accept", "text/plain;version=0.0.4")
              .build();
    }

    @TearDown(Level.Trial)
    public void stop() {
      client.close();
      server.close();
    }
  }

  @Benchmark
  public Mapping parseAndMap(Body body, Parsing parsing) {
    ParseResult parsed = Engine.VLLM.parser().parse(body.bytes);
    return parsing.mapper.map(parsed.samples(), System.nanoTime());
  }

  @Benchmark
  public Object scraper(Picker picker) throws Exception {
    return picker.scraper.scrapeNow(picker.address).get(1, TimeUnit.SECONDS);
  }

  @Benchmark
  public Mapping jdkHttpClient(Jdk jdk) throws Exception {
    HttpResponse<byte[]> response =
        jdk.client.send(jdk.request, HttpResponse.BodyHandlers.ofByteArray());
    ParseResult parsed = Engine.VLLM.parser().parse(response.body());
    return jdk.mapper.map(parsed.samples(), System.nanoTime());
  }
}
