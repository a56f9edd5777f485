package dev.pointsman.cli.demo;

import dev.pointsman.gateway.app.LocalGateway;
import dev.pointsman.gateway.config.GatewayConfig;
import dev.pointsman.gateway.config.ListenSection;
import dev.pointsman.gateway.config.PickerSection;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.server.Fleet;
import dev.pointsman.sim.server.FleetConfig;
import dev.pointsman.sim.server.PodConfig;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything the demo runs, in one process: a heterogeneous simulated fleet, the picker in front of
 * it, the local gateway routing through the picker, and a second gateway that only round-robins
 * over the pods (what a Kubernetes Service would do) for the comparison.
 */
final class DemoStack implements AutoCloseable {
  static final String MODEL = "meta-llama/Llama-3.1-8B-Instruct";
  static final String ADAPTER = "sql-lora";
  static final String POOL = "llama";

  final Fleet fleet;
  final List<String> gpus = new ArrayList<>();
  final List<String> addresses = new ArrayList<>();
  final PickerApp picker;
  final LocalGateway gateway;
  final LocalGateway roundRobin;

  DemoStack(int port) throws Exception {
    List<PodConfig> pods = new ArrayList<>();
    String[][] layout = {
      {"h100-a", "H100-80"},
      {"h100-b", "H100-80"},
      {"l4-a", "L4"},
      {"l4-b", "L4"},
      {"l4-c", "L4"},
      {"l4-d", "L4"}
    };
    for (String[] p : layout) {
      pods.add(PodConfig.of(p[0], p[1]).withAdapters(List.of(ADAPTER)));
      gpus.add(p[1]);
    }
    fleet = Fleet.start(new FleetConfig(pods, 7L, null), GpuProfiles.builtIn());
    for (String url : fleet.urls()) {
      addresses.add(url.substring("http://".length()));
    }
    picker = new PickerApp(PickerConfig.parse(pickerYaml()), null).start();
    gateway =
        LocalGateway.start(
            gatewayConfig(
                port,
                PickerSection.trusting(
                    "127.0.0.1:" + picker.grpcPort(), picker.certificatePem().orElseThrow()),
                false));
    roundRobin =
        LocalGateway.start(
            gatewayConfig(0, PickerSection.plaintext("127.0.0.1:" + closedPort()), true));
  }

  private String pickerYaml() {
    StringBuilder sb =
        new StringBuilder(
            """
            grpc: {port: 0, host: 127.0.0.1}
            admin: {port: 0, host: 127.0.0.1}
            models:
              - name: %s
                aliases: [llama]
                pools: [{pool: %s}]
              - name: %s
                baseModel: %s
            defaultModel: %s
            pools:
              - name: %s
                endpoints:
            """
                .formatted(MODEL, POOL, ADAPTER, MODEL, MODEL, POOL));
    for (int i = 0; i < addresses.size(); i++) {
      sb.append("      - {address: \"")
          .append(addresses.get(i))
          .append("\", labels: {gpu: ")
          .append(gpus.get(i))
          .append("}}\n");
    }
    return sb.toString();
  }

  private GatewayConfig gatewayConfig(int port, PickerSection pickerSection, boolean failOpen) {
    return new GatewayConfig(
        new ListenSection("127.0.0.1", port, "self-signed", null, null, List.of("localhost")),
        pickerSection,
        failOpen,
        addresses,
        null,
        null,
        null);
  }

  /** A port nothing listens on: the round-robin gateway's picker is "down", so it fails open. */
  private static int closedPort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Override
  public void close() {
    roundRobin.close();
    gateway.close();
    picker.close();
    fleet.close();
  }
}
