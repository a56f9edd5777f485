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
  final PickerApp picker;
  final LocalGateway gateway;
  private boolean pickerClosed;

  private ClusterStack(String name, Fleet pods, PickerApp picker, LocalGateway gateway) {
    this.name = name;
    this.pods = pods;
    this.picker = picker;
    this.gateway = gateway;
  }

  static ClusterStack start(String name, TestCa ca) {
    Fleet pods =
        Fleet.start(
            new dev.pointsman.sim.server.FleetConfig(
                List.of(pod(name + "-a"), pod(name + "-b")), 1L, null),
            GpuProfiles.builtIn());
    List<String> addresses =
        pods.urls().stream().map(u -> u.substring("http://".length())).toList();
    TestCa.Issued cert = ca.server("picker-" + name);
    String yaml =
        """
        grpc: {port: 0, host: 127.0.0.1, drainSeconds: 5}
        admin: {port: 0, host: 127.0.0.1}
        scrape: {intervalMillis: 50, timeoutMillis: 500, failureThreshold: 2, \
        staleAfterMillis: 300, unavailableAfterMillis: 400}
        models:
          - {name: %s, pools: [{pool: main}]}
        pools:
          - {name: main, endpoints: [{address: "%s"}, {address: "%s"}]}
        summary: {enabled: true, cluster: %s, port: 0, intervalMillis: 50, \
        certChain: "%s", privateKey: "%s", clientCa: "%s"}
        """
            .formatted(
                MODEL,
                addresses.get(0),
                addresses.get(1),
                name,
                cert.certChain(),
                cert.privateKey(),
                ca.caFile());
    PickerApp picker = new PickerApp(PickerConfig.parse(yaml), null).start();
    Await.until(name + "'s picker has scraped its pods", picker::ready);
    LocalGateway gateway =
        LocalGateway.start(
            GatewayConfig.of(
                new ListenSection("127.0.0.1", 0, "plaintext", null, null, null),
                PickerSection.trusting(
                    "localhost:" + picker.grpcPort(), picker.certificatePem().orElseThrow())));
    return new ClusterStack(name, pods, picker, gateway);
  }

  private static PodConfig pod(String name) {
    return new PodConfig(
        name, "H100-80", MODEL, null, null, null, null, List.of(), null, FaultConfig.NONE);
  }

  String gatewayAddress() {
    return "127.0.0.1:" + gateway.port();
  }

  String summaryAddress() {
    return "127.0.0.1:" + picker.summaryPort().orElseThrow();
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

  /** The picker shuts down as on SIGTERM, its grace period waited by {@code pause}. */
  void drainPicker(dev.pointsman.runtime.GrpcServer.Pause pause) {
    pickerClosed = true;
    picker.drainAndClose(pause);
  }

  @Override
  public void close() {
    gateway.close();
    if (!pickerClosed) {
      picker.close();
    }
    pods.close();
  }
}
