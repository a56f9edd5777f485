package dev.pointsman.fleet;

import dev.pointsman.gateway.app.LocalGateway;
import dev.pointsman.gateway.config.GatewayConfig;
import dev.pointsman.gateway.config.ListenSection;
import dev.pointsman.gateway.config.PickerSection;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.server.FaultConfig;
import dev.pointsman.sim.server.Fleet;
import dev.pointsman.sim.server.PodConfig;
import dev.pointsman.testing.Await;
import dev.pointsman.testing.TestCa;
import java.util.List;

/**
 * One cluster on loopback: two simulated pods, a picker scraping them that publishes its summary
 * over mutual TLS, and a plaintext local gateway in front of the picker (the cluster's gateway the
 * fleet routes to).
 */
final class ClusterStack implements AutoCloseable {
  static final String MODEL = "llama-8b";

  final String name;
  final Fleet pods;
  final LocalGateway gateway;
  private final String yaml;
  private final int grpcPort;
  private final int summaryPort;
  private volatile PickerApp picker;
  private boolean pickerClosed;
  private boolean gatewayClosed;

  private ClusterStack(
      String name, Fleet pods, PickerApp picker, LocalGateway gateway, String yaml) {
    this.name = name;
    this.pods = pods;
    this.picker = picker;
    this.gateway = gateway;
    this.yaml = yaml;
    this.grpcPort = picker.grpcPort();
    this.summaryPort = picker.summaryPort().orElseThrow();
  }

  PickerApp picker() {
    return picker;
  }

  static ClusterStack start(String name, TestCa ca) {
    Fleet pods =
        Fleet.start(
            new dev.pointsman.sim.server.FleetConfig(
                List.of(pod(name + "-a"), pod(name + "-b")), 1L, null),
            GpuProfiles.builtIn());
    List<String> addresses =
        pods.urls().stream().map(u -> u.substring("http://".length())).toList();
    // the picker's ext_proc and summary listeners present a certificate of the cluster's CA, so
    // that a restarted picker is trusted as the first one was
    TestCa.Issued cert = ca.server("picker-" + name);
    String yaml =
        """
        grpc: {port: %%d, host: 127.0.0.1, drainSeconds: 5, tls: files, \
        certChain: "%2$s", privateKey: "%3$s"}
        admin: {port: 0, host: 127.0.0.1}
        scrape: {intervalMillis: 50, timeoutMillis: 500, failureThreshold: 2, \
        staleAfterMillis: 300, unavailableAfterMillis: 400}
        models:
          - {name: %4$s, pools: [{pool: main}]}
        pools:
          - {name: main, endpoints: [{address: "%5$s"}, {address: "%6$s"}]}
        summary: {enabled: true, cluster: %1$s, port: %%d, intervalMillis: 50, \
        certChain: "%2$s", privateKey: "%3$s", clientCa: "%7$s"}
        """
            .formatted(
                name,
                cert.certChain(),
                cert.privateKey(),
                MODEL,
                addresses.get(0),
                addresses.get(1),
                ca.caFile());
    PickerApp picker = startPicker(name, yaml, 0, 0);
    LocalGateway gateway =
        LocalGateway.start(
            GatewayConfig.of(
                new ListenSection("127.0.0.1", 0, "plaintext", null, null, null),
                new PickerSection(
                    "localhost:" + picker.grpcPort(), "tls", ca.caFile().toString(), null, null)));
    return new ClusterStack(name, pods, picker, gateway, yaml);
  }

  private static PickerApp startPicker(String name, String yaml, int grpcPort, int summaryPort) {
    PickerApp picker =
        new PickerApp(PickerConfig.parse(yaml.formatted(grpcPort, summaryPort)), null).start();
    Await.until(name + "'s picker has scraped its pods", picker::ready);
    return picker;
  }

  /** A new picker on the ports of the one that stopped: the cluster comes back. */
  void restartPicker() {
    picker = startPicker(name, yaml, grpcPort, summaryPort);
    pickerClosed = false;
  }

  private static PodConfig pod(String name) {
    return new PodConfig(
        name, "H100-80", MODEL, null, null, null, null, List.of(), null, FaultConfig.NONE);
  }

  String gatewayAddress() {
    return "127.0.0.1:" + gateway.port();
  }

  String summaryAddress() {
    return "127.0.0.1:" + summaryPort;
  }

  /** Requests the cluster's gateway has answered, whatever their status. */
  double answered() {
    return gateway.metrics().registry().find("pointsman_gateway_requests").counters().stream()
        .mapToDouble(io.micrometer.core.instrument.Counter::count)
        .sum();
  }

  /** The picker stops at once: its summary and its ext_proc service go away. */
  void killPicker() {
    pickerClosed = true;
    picker.close();
  }

  /**
   * The cluster's gateway stops at once (its listener and every connection closed): requests in
   * flight there are cut, new connections are refused. Its picker keeps publishing.
   */
  void killGateway() {
    gatewayClosed = true;
    gateway.close();
  }

  /** The picker shuts down as on SIGTERM, its grace period waited by {@code pause}. */
  void drainPicker(dev.pointsman.runtime.GrpcServer.Pause pause) {
    pickerClosed = true;
    picker.drainAndClose(pause);
  }

  @Override
  public void close() {
    if (!gatewayClosed) {
      gateway.close();
    }
    if (!pickerClosed) {
      picker.close();
    }
    pods.close();
  }
}
