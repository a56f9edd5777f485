package dev.pointsman.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.gateway.app.LocalGateway;
import dev.pointsman.gateway.app.LocalGatewayCommand;
import dev.pointsman.gateway.config.GatewayConfig;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.app.PickerCommand;
import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.picker.config.PoolConfig;
import dev.pointsman.runtime.Pem;
import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.server.Fleet;
import dev.pointsman.sim.server.SimulateCommand;
import dev.pointsman.testing.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The README's "roles one by one", end to end over real sockets: the example files, read by the
 * commands as the README runs them (only the ports moved to ephemeral ones and the certificate to a
 * temporary folder), and a streamed chat through the local gateway. This is the path that used to
 * end in a silent 503: a self-signed picker and a gateway trusting only the JDK's trust store.
 */
class RolesOneByOneTest {
  private static final Path EXAMPLES = Path.of("..", "..", "examples");

  @TempDir Path tmp;

  @Test
  void theExampleGatewayTrustsTheCertificateTheExamplePickerWrites() {
    PickerCommand picker = parse(new PickerCommand(), "--config", ex("picker.yaml"));
    GatewayConfig gateway =
        parse(new LocalGatewayCommand(), "--config", ex("local-gateway.yaml")).config();

    assertThat(picker.config().grpc().tls()).isEqualTo("self-signed");
    assertThat(picker.certificateFile(picker.config()))
        .isEqualTo(PickerCommand.DEFAULT_CERTIFICATE_OUT);
    assertThat(gateway.picker().tls()).isEqualTo("tls");
    assertThat(Path.of(gateway.picker().caFile())).isEqualTo(PickerCommand.DEFAULT_CERTIFICATE_OUT);
    assertThat(gateway.picker().hostPort().port()).isEqualTo(picker.config().grpc().port());
  }

  @Test
  void everyExampleRoleBindsLoopback() {
    PickerConfig picker = parse(new PickerCommand(), "--config", ex("picker.yaml")).config();
    GatewayConfig gateway =
        parse(new LocalGatewayCommand(), "--config", ex("local-gateway.yaml")).config();
    GatewayConfig bare = parse(new LocalGatewayCommand()).config();

    assertThat(
            Stream.of(
                picker.grpc().host(),
                picker.admin().host(),
                gateway.listen().host(),
                gateway.admin().host(),
                bare.listen().host()))
        .containsOnly("127.0.0.1");
    assertThat(
            parse(new SimulateCommand(), "--config", ex("fleet.yaml")).fleetConfig().pods().stream()
                .map(p -> p.host()))
        .containsOnly("127.0.0.1");
  }

  @Test
  void aStreamedChatThroughTheExampleConfigsWorks() throws Exception {
    // given: the three roles as the README starts them, on ephemeral ports
    try (Fleet fleet =
            Fleet.start(
                parse(new SimulateCommand(), "--config", ex("fleet.yaml"), "--port-base", "0")
                    .fleetConfig(),
                GpuProfiles.builtIn());
        Roles roles = Roles.start(fleet, tmp)) {
      // when
      HttpResponse<Stream<String>> r =
          trusting(roles.gateway.certificatePem().orElseThrow())
              .send(
                  HttpRequest.newBuilder(
                          URI.create(
                              "https://localhost:" + roles.gateway.port() + "/v1/chat/completions"))
                      .header("content-type", "application/json")
                      .timeout(Duration.ofSeconds(30))
                      .POST(
                          HttpRequest.BodyPublishers.ofString(
                              """
                              {"model": "llama", "stream": true, "max_tokens": 5,
                               "messages": [{"role": "user", "content": "Hello!"}]}"""))
                      .build(),
                  HttpResponse.BodyHandlers.ofLines());

      // then
      List<String> events = r.body().filter(l -> l.startsWith("data: ")).toList();
      assertThat(r.statusCode()).as("%s", events).isEqualTo(200);
      assertThat(r.headers().firstValue("content-type"))
          .hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
      assertThat(r.headers().firstValue("x-pointsman-served-by")).isPresent();
      assertThat(events).last().isEqualTo("data: [DONE]");
      assertThat(events.getFirst()).contains("\"object\":\"chat.completion.chunk\"");
    }
  }

  /** The picker and the gateway, started from the example files as their commands read them. */
  private record Roles(PickerApp picker, LocalGateway gateway) implements AutoCloseable {
    static Roles start(Fleet fleet, Path tmp) throws Exception {
      Path cert = tmp.resolve("picker.pem");
      PickerCommand pickerCommand =
          parse(
              new PickerCommand(),
              "--config",
              ex("picker.yaml"),
              "--grpc-port",
              "0",
              "--admin-port",
              "0",
              "--certificate-out",
              cert.toString());
      PickerConfig config = onPods(pickerCommand.config(), fleet);
      PickerApp picker = new PickerApp(config, null).start();
      assertThat(pickerCommand.writeCertificate(picker, config)).contains(cert);
      Await.until("the picker has scraped every pod", picker::ready);
      LocalGateway gateway =
          LocalGateway.start(
              parse(
                      new LocalGatewayCommand(),
                      "--config",
                      ex("local-gateway.yaml"),
                      "--port",
                      "0",
                      "--admin-port",
                      "0",
                      "--picker",
                      "127.0.0.1:" + picker.grpcPort(),
                      "--picker-ca",
                      cert.toString())
                  .config());
      return new Roles(picker, gateway);
    }

    @Override
    public void close() {
      gateway.close();
      picker.close();
    }
  }

  /** The example's endpoints moved to where the fleet listens (same order, same labels). */
  private static PickerConfig onPods(PickerConfig c, Fleet fleet) {
    List<String> urls = fleet.urls();
    PoolConfig pool = c.pools().getFirst();
    List<PoolConfig.EndpointConfig> endpoints = new ArrayList<>();
    for (int i = 0; i < pool.endpoints().size(); i++) {
      endpoints.add(
          new PoolConfig.EndpointConfig(
              urls.get(i).substring("http://".length()), pool.endpoints().get(i).labels()));
    }
    return new PickerConfig(
        c.grpc(),
        c.admin(),
        c.extProc(),
        c.scrape(),
        c.models(),
        c.defaultModel(),
        List.of(pool.withEndpoints(endpoints)),
        c.objectives(),
        c.decisionLog(),
        c.protocol(),
        c.shutdown(),
        c.replication());
  }

  private static String ex(String file) {
    return EXAMPLES.resolve(file).toString();
  }

  private static <T> T parse(T command, String... args) {
    new CommandLine(command).parseArgs(args);
    return command;
  }

  private static HttpClient trusting(String pem) throws Exception {
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    trust.setCertificateEntry("gateway", Pem.readCertificates(pem).getFirst());
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext ssl = SSLContext.getInstance("TLS");
    ssl.init(null, tmf.getTrustManagers(), null);
    return HttpClient.newBuilder().sslContext(ssl).connectTimeout(Duration.ofSeconds(5)).build();
  }
}
