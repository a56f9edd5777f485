package dev.pointsman.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.picker.envoy.EnvoyConfigRules;
import io.envoyproxy.envoy.config.bootstrap.v3.Bootstrap;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ExtProcPerRoute;
import io.envoyproxy.envoy.type.v3.FractionalPercent;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The weighted canary (values {@code canary}): the chart's Envoy config, parsed into Envoy's own
 * protobufs, samples a share of inference requests into the picker's routes and sends the rest to
 * the existing balancer's Service with ext_proc disabled on that route.
 */
class CanaryChartTest {
  private static final String EXT_PROC = "envoy.filters.http.ext_proc";

  private static Bootstrap envoy(String values) {
    ConfigMap cm = Chart.render(values).get(ConfigMap.class, "pointsman-envoy");
    return EnvoyConfigRules.assertValid(cm.getData().get("envoy.yaml"));
  }

  private static VirtualHost host(Bootstrap bootstrap) {
    return EnvoyConfigRules.connectionManagers(EnvoyConfigRules.gatewayListeners(bootstrap).get(0))
        .get(0)
        .getRouteConfig()
        .getVirtualHosts(0);
  }

  private static Route route(VirtualHost host, String name) {
    return host.getRoutesList().stream()
        .filter(r -> r.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no route " + name));
  }

  private static boolean extProcDisabled(Route route) {
    var perRoute = route.getTypedPerFilterConfigMap().get(EXT_PROC);
    try {
      return perRoute != null && perRoute.unpack(ExtProcPerRoute.class).getDisabled();
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new AssertionError(perRoute.getTypeUrl(), e);
    }
  }

  @Test
  void offByDefaultTheRoutesAreTheShippedOnes() {
    List<String> names = host(envoy("")).getRoutesList().stream().map(Route::getName).toList();
    assertThat(names).doesNotContain("canary-pointsman", "canary-balancer");
  }

  @Test
  void aShareGoesThroughThePickerAndTheRestToTheBalancerWithoutIt() {
    Bootstrap bootstrap =
        envoy(
            "canary: {enabled: true, percent: 25}\n"
                + "envoy: {defaultService: {host: homegrown-lb.models.svc.cluster.local, port: 80}}");
    VirtualHost host = host(bootstrap);
    List<String> names = host.getRoutesList().stream().map(Route::getName).toList();

    // the two canary routes come first, the picker's routes after them, unchanged
    assertThat(names.subList(0, 4))
        .containsExactly("canary-pointsman", "canary-balancer", "picked-h2c", "picked");
    Route sampled = route(host, "canary-pointsman");
    Route balancer = route(host, "canary-balancer");
    FractionalPercent share = sampled.getMatch().getRuntimeFraction().getDefaultValue();
    assertThat(share.getNumerator()).isEqualTo(25);
    assertThat(share.getDenominator()).isEqualTo(FractionalPercent.DenominatorType.HUNDRED);
    assertThat(sampled.getMatch().getRuntimeFraction().getRuntimeKey())
        .isEqualTo("pointsman.canary.percent");
    assertThat(extProcDisabled(sampled)).as("the sampled share is decided by the picker").isFalse();
    assertThat(balancer.getMatch().hasRuntimeFraction()).isFalse();
    assertThat(extProcDisabled(balancer)).as("the rest never reaches the picker").isTrue();
    // both match exactly the inference requests the picked route matches, before a destination
    Route picked = route(host, "picked");
    for (Route r : List.of(sampled, balancer)) {
      assertThat(r.getMatch().getSafeRegex()).isEqualTo(picked.getMatch().getSafeRegex());
      assertThat(r.getRoute().getCluster()).isEqualTo("default-models");
      assertThat(r.getMatch().getHeadersList())
          .anySatisfy(
              h -> {
                assertThat(h.getName()).isEqualTo("x-gateway-destination-endpoint");
                assertThat(h.getPresentMatch()).isFalse();
              });
    }
    // once the picker set a destination, the canary routes no longer match: picked does
    assertThat(EnvoyConfigRules.firstMatch(host, "POST", "/v1/chat/completions", true).getName())
        .isEqualTo("picked");
    // a request not sampled in goes to the balancer, whose Service is envoy.defaultService
    assertThat(EnvoyConfigRules.firstMatch(host, "POST", "/v1/completions", false).getName())
        .isEqualTo("canary-balancer");
    assertThat(
            EnvoyConfigRules.firstAddress(EnvoyConfigRules.cluster(bootstrap, "default-models"))
                .getAddress())
        .isEqualTo("homegrown-lb.models.svc.cluster.local");
  }

  @Test
  void theRuntimeKeyAndAFullShareCanBeSet() {
    VirtualHost host =
        host(envoy("canary: {enabled: true, percent: 100, runtimeKey: team_a.pointsman.share}"));
    var fraction = route(host, "canary-pointsman").getMatch().getRuntimeFraction();
    assertThat(fraction.getDefaultValue().getNumerator()).isEqualTo(100);
    assertThat(fraction.getRuntimeKey()).isEqualTo("team_a.pointsman.share");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "canary: {enabled: true, percent: 101} | percent",
        "canary: {enabled: true, percent: -1} | percent",
        "canary: {enabled: true, runtimeKey: 'Bad Key'} | runtimeKey",
        "canary: {enabled: true, weight: 5} | weight",
        "{canary: {enabled: true}, picker: {config: {shadow: {enabled: true}}}} |"
            + " canary.enabled with picker.config.shadow.enabled",
      })
  void badValuesAreRefusedByName(String values, String message) {
    assertThatThrownBy(() -> Chart.render(values)).hasMessageContaining(message);
  }
}
