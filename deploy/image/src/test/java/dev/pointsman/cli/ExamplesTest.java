package dev.pointsman.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.body.router.BodyRouterConfig;
import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.sim.server.FleetConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The example files the README points at stay valid. */
class ExamplesTest {
  private static final Path EXAMPLES = Path.of("..", "..", "examples");

  @Test
  void pickerExampleIsValid() {
    PickerConfig c = PickerConfig.load(EXAMPLES.resolve("picker.yaml"));
    assertThat(c.pools()).singleElement().satisfies(p -> assertThat(p.endpoints()).hasSize(4));
    assertThat(c.modelsConfig().defaultModel()).isEqualTo("llama");
  }

  @Test
  void bodyRouterExampleIsValid() {
    assertThat(BodyRouterConfig.load(EXAMPLES.resolve("body-router.yaml")).discovery()).hasSize(1);
  }

  @Test
  void fleetGatewayExampleIsValid() {
    var c = dev.pointsman.fleet.config.FleetConfig.load(EXAMPLES.resolve("fleet-gateway.yaml"));
    assertThat(c.clusters()).hasSize(2);
    assertThat(c.regions()).containsExactly("us-east", "eu-west");
  }

  @Test
  void fleetDemoClustersAreValidAndNamedAsTheFleetNamesThem() {
    var fleet = dev.pointsman.fleet.config.FleetConfig.load(EXAMPLES.resolve("fleet-gateway.yaml"));
    for (var cluster : fleet.clusters()) {
      String x = cluster.name().substring("cluster-".length());
      PickerConfig picker =
          PickerConfig.load(EXAMPLES.resolve("fleet-demo/cluster-" + x + "-picker.yaml"));
      assertThat(picker.summary().enabled()).isTrue();
      assertThat(picker.summary().cluster()).isEqualTo(cluster.name());
      assertThat(cluster.summary()).endsWith(":" + picker.summary().port());
      var gateway =
          dev.pointsman.gateway.config.GatewayConfig.load(
              EXAMPLES.resolve("fleet-demo/cluster-" + x + "-gateway.yaml"));
      assertThat(cluster.gateway()).endsWith(":" + gateway.listen().port());
      assertThat(gateway.picker().address()).endsWith(":" + picker.grpc().port());
    }
  }

  @Test
  void fleetExampleIsValid() {
    assertThat(FleetConfig.load(EXAMPLES.resolve("fleet.yaml")).pods()).hasSize(4);
  }
}
