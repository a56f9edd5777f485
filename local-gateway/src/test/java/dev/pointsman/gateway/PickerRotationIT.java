package dev.pointsman.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.gateway.app.LocalGateway;
import dev.pointsman.gateway.config.GatewayConfig;
import dev.pointsman.gateway.config.ListenSection;
import dev.pointsman.gateway.config.PickerSection;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.runtime.CertificateReloader;
import dev.pointsman.runtime.PemFilesReloader.Outcome;
import dev.pointsman.runtime.SelfSigned;
import dev.pointsman.testing.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The picker's certificate and the CA the gateway trusts it with, both rotated the way the kubelet
 * updates Secret volumes, while streamed completions run client → gateway → picker → pod over real
 * TLS sockets: none is lost, new streams work at once, and a new connection verifies against the
 * new CA. The certificates are self-signed, so each is its own CA: the rotation changes both. The
 * reload checks are forced instead of waited for.
 */
class PickerRotationIT {
  private static final SelfSigned A = SelfSigned.generate(List.of());
  private static final SelfSigned B = SelfSigned.generate(List.of());
  private static final int STREAMS = 8;

  @TempDir Path dir;
  private final AtomicInteger generation = new AtomicInteger();
  private HeldPod pod;
  private PickerApp picker;
  private LocalGateway gateway;
  private HttpClient client;

  @BeforeEach
  void start() throws Exception {
    Path pickerTls = Files.createDirectory(dir.resolve("picker-tls"));
    Path gatewayCa = Files.createDirectory(dir.resolve("picker-ca"));
    project(pickerTls, "tls.crt", A.certificatePem(), "tls.key", A.privateKeyPem());
    project(gatewayCa, "ca.crt", A.certificatePem());
    pod = new HeldPod();
    picker =
        new PickerApp(
                PickerConfig.parse(
                    Stack.pickerHeader()
                            .replace(
                                "drainSeconds: 0}",
                                "drainSeconds: 0, tls: files, certChain: %s, privateKey: %s}"
                                    .formatted(
                                        pickerTls.resolve("tls.crt"), pickerTls.resolve("tls.key")))
                        + """
                        models: [{name: llama-8b, pools: [{pool: main}]}]
                        pools: [{name: main, endpoints: [{address: "%s"}]}]
                        """
                            .formatted(pod.address())),
                null)
            .start();
    Await.until("the picker has scraped the pod", picker::ready);
    gateway =
        LocalGateway.start(
            GatewayConfig.of(
                new ListenSection("127.0.0.1", 0, null, null, null, null),
                new PickerSection(
                    "localhost:" + picker.grpcPort(),
                    "tls",
                    gatewayCa.resolve("ca.crt").toString(),
                    null,
                    null)));
    client =
        HttpClient.newBuilder()
            .sslContext(Stack.trusting(gateway.certificatePem().orElseThrow()))
            .version(HttpClient.Version.HTTP_2)
            .build();
  }

  @AfterEach
  void stop() throws Exception {
    if (gateway != null) {
      gateway.close();
    }
    if (picker != null) {
      picker.close();
    }
    pod.close();
  }

  @Test
  void aRotationOfCertificateAndCaLosesNoStreamAndNewConnectionsTrustTheNewCa() throws Exception {
    List<CompletableFuture<HttpResponse<String>>> before = stream(STREAMS);
    assertThat(pod.awaitStarted(STREAMS)).as("streams open at the pod").isTrue();

    // when: the picker's Secret and the gateway's CA file are renewed with a new CA
    project(dir.resolve("picker-tls"), "tls.crt", B.certificatePem(), "tls.key", B.privateKeyPem());
    project(dir.resolve("picker-ca"), "ca.crt", B.certificatePem());
    assertThat(picker.reloadTls()).isEqualTo(CertificateReloader.Outcome.RELOADED);
    assertThat(gateway.pickerTrust().orElseThrow().check()).isEqualTo(Outcome.RELOADED);

    // then: new streams work at once (on the open connection), while the old ones stream on
    List<CompletableFuture<HttpResponse<String>>> during = stream(STREAMS);
    assertThat(pod.awaitStarted(STREAMS)).as("streams opened after the rotation").isTrue();
    // a new connection to the picker is verified against the new CA (the old one would fail it)
    gateway.reconnectPicker();
    List<CompletableFuture<HttpResponse<String>>> reconnected = stream(STREAMS);
    assertThat(pod.awaitStarted(STREAMS)).as("streams on a new connection").isTrue();

    pod.release();
    List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>(before);
    all.addAll(during);
    all.addAll(reconnected);
    for (var future : all) {
      HttpResponse<String> res = future.get(20, TimeUnit.SECONDS);
      assertThat(res.statusCode()).isEqualTo(200);
      assertThat(res.body()).contains(" first").contains(" last").contains("data: [DONE]");
    }
    assertThat(gateway.metrics().registry().get("pointsman_gateway_tls_reloads"))
        .satisfies(
            s ->
                assertThat(
                        s.tags("file", "picker-ca", "result", "reloaded").functionCounter().count())
                    .isEqualTo(1.0));
    assertThat(gateway.metrics().requests(200)).isEqualTo(3.0 * STREAMS);
  }

  @Test
  void withoutTheNewCaANewConnectionFailsClosedAndTheOpenOneServesOn() throws Exception {
    List<CompletableFuture<HttpResponse<String>>> before = stream(2);
    assertThat(pod.awaitStarted(2)).isTrue();

    // the picker rotates, the gateway's CA file does not
    project(dir.resolve("picker-tls"), "tls.crt", B.certificatePem(), "tls.key", B.privateKeyPem());
    assertThat(picker.reloadTls()).isEqualTo(CertificateReloader.Outcome.RELOADED);
    assertThat(gateway.pickerTrust().orElseThrow().check()).isEqualTo(Outcome.UNCHANGED);
    gateway.reconnectPicker();
    HttpResponse<String> refused = stream(1).getFirst().get(20, TimeUnit.SECONDS);

    pod.release();
    assertThat(refused.statusCode()).isEqualTo(503);
    for (var future : before) {
      assertThat(future.get(20, TimeUnit.SECONDS).body()).contains("data: [DONE]");
    }
  }

  private List<CompletableFuture<HttpResponse<String>>> stream(int n) {
    List<CompletableFuture<HttpResponse<String>>> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      HttpRequest request =
          HttpRequest.newBuilder(
                  URI.create("https://127.0.0.1:" + gateway.port() + "/v1/completions"))
              .timeout(Duration.ofSeconds(30))
              .header("content-type", "application/json")
              .POST(
                  HttpRequest.BodyPublishers.ofString(
                      Stack.completion(Stack.MODEL, "stream " + i, true, 2)))
              .build();
      out.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
    }
    return out;
  }

  /** Writes a new timestamped directory and swaps {@code ..data} to it, as the kubelet does. */
  private void project(Path volume, String... namesAndContents) throws Exception {
    Path data = Files.createDirectory(volume.resolve("..gen_" + generation.incrementAndGet()));
    for (int i = 0; i < namesAndContents.length; i += 2) {
      Files.writeString(data.resolve(namesAndContents[i]), namesAndContents[i + 1]);
      Path link = volume.resolve(namesAndContents[i]);
      if (!Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        Files.createSymbolicLink(link, Path.of("..data", namesAndContents[i]));
      }
    }
    Path tmp = volume.resolve("..data_tmp");
    Files.createSymbolicLink(tmp, data.getFileName());
    Files.move(tmp, volume.resolve("..data"), StandardCopyOption.ATOMIC_MOVE);
  }
}
