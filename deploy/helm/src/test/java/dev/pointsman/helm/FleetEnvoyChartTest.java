package dev.pointsman.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.extproc.Responses;
import dev.pointsman.fleet.extproc.FleetHandler;
import dev.pointsman.picker.envoy.EnvoyConfigRules;
import io.envoyproxy.envoy.config.bootstrap.v3.Bootstrap;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.route.v3.RetryPolicy;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.extensions.clusters.aggregate.v3.ClusterConfig;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.retry.priority.previous_priorities.v3.PreviousPrioritiesConfig;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The fleet Envoy's bootstrap the chart renders from fleet.config.clusters: the shipped
 * deploy/envoy-fleet config, plus a cluster per member, an aggregate cluster per route key the
 * fleet tier can return, and the route that resends a request its cluster refused before it started
 * to the next one. Parsed into Envoy's protobufs, unknown fields refused.
 */
class FleetEnvoyChartTest {
  private static final String CONFIG_MAP = "pointsman-fleet-envoy";

  private static String values(String extra) {
    return """
        fleet:
          enabled: true
          tlsSecretName: fleet-tls
          summariesSecretName: fleet-summaries
          config:
            regions: [us, eu]
            %s
            clusters:
              - {name: us-spot, gateway: "10.1.0.10:443", summary: "s.us:9004", tier: spot, \
        pricePerGpuHour: 1.2, rttMillis: {us: 3, eu: 85}}
              - {name: us-od, gateway: "gw.us-od.example:8443", summary: "s.od:9004", \
        tier: on-demand, pricePerGpuHour: 4, rttMillis: {us: 3, eu: 85}}
              - {name: eu-od, gateway: "[fd00::7]:443", summary: "s.eu:9004", tier: on-demand, \
        pricePerGpuHour: 4, rttMillis: {us: 85, eu: 3}}
        """
        .formatted(extra);
  }

  private static Bootstrap render(String extra) {
    Rendered r = Chart.render(values(extra));
    return EnvoyConfigRules.parse(r.get(ConfigMap.class, CONFIG_MAP).getData().get("envoy.yaml"));
  }

  private static List<Route> routes(Bootstrap bootstrap) {
    HttpConnectionManager hcm =
        EnvoyConfigRules.connectionManagers(EnvoyConfigRules.gatewayListeners(bootstrap).get(0))
            .get(0);
    return hcm.getRouteConfig().getVirtualHosts(0).getRoutesList();
  }

  private static List<String> members(Bootstrap bootstrap, String key) {
    Cluster aggregate = EnvoyConfigRules.cluster(bootstrap, key);
    assertThat(aggregate.getClusterType().getName()).isEqualTo("envoy.clusters.aggregate");
    return EnvoyConfigRules.unpack(aggregate.getClusterType().getTypedConfig(), ClusterConfig.class)
        .getClustersList();
  }

  @Test
  void theChartsCopyOfTheFleetEnvoyConfigIsIdenticalToDeployEnvoyFleet() {
    assertThat(Chart.read(Chart.DIR.resolve("files/envoy-fleet/envoy.yaml")))
        .as("deploy/helm/pointsman/files/envoy-fleet/envoy.yaml must equal deploy/envoy-fleet/")
        .isEqualTo(Chart.read(Chart.REPO.resolve(Path.of("deploy", "envoy-fleet", "envoy.yaml"))));
  }

  @Test
  void eachMemberIsAClusterToItsGatewayOverTheSameTlsAsTheOriginalDstOne() {
    Bootstrap bootstrap = render("");
    Cluster gateways = EnvoyConfigRules.cluster(bootstrap, "cluster-gateways");

    for (String[] member :
        List.of(
            new String[] {"us-spot", "10.1.0.10", "443"},
            new String[] {"us-od", "gw.us-od.example", "8443"},
            new String[] {"eu-od", "fd00::7", "443"})) {
      Cluster c = EnvoyConfigRules.cluster(bootstrap, member[0]);
      var address = EnvoyConfigRules.firstAddress(c);
      assertThat(address.getAddress()).isEqualTo(member[1]);
      assertThat(address.getPortValue()).isEqualTo(Integer.parseInt(member[2]));
      assertThat(c.getTransportSocket()).isEqualTo(gateways.getTransportSocket());
      assertThat(c.getTypedExtensionProtocolOptionsMap())
          .isEqualTo(gateways.getTypedExtensionProtocolOptionsMap());
      assertThat(c.getConnectTimeout()).isEqualTo(gateways.getConnectTimeout());
    }
  }

  @Test
  void everyRouteKeyTheFleetCanReturnIsAnAggregateOfItsClustersInOrder() {
    Bootstrap one = render("");
    Bootstrap two = render("fallbacks: 2");

    // one fallback (the default): every ordered pair of distinct members
    assertThat(members(one, "us-spot+eu-od")).containsExactly("us-spot", "eu-od");
    assertThat(members(one, "eu-od+us-spot")).containsExactly("eu-od", "us-spot");
    assertThat(one.getStaticResources().getClustersList())
        .filteredOn(c -> c.getName().contains("+"))
        .hasSize(6);
    // two: the pairs and every ordered triple
    assertThat(members(two, "us-od+us-spot+eu-od")).containsExactly("us-od", "us-spot", "eu-od");
    assertThat(two.getStaticResources().getClustersList())
        .filteredOn(c -> c.getName().contains("+"))
        .hasSize(12);
  }

  @Test
  void theRouteByTheFleetsKeyRetriesOnlyWhatNeverReachedAClusterEachTimeOnTheNext() {
    Bootstrap bootstrap = render("fallbacks: 2");
    List<Route> routes = routes(bootstrap);
    List<String> names = routes.stream().map(Route::getName).toList();

    Route route = routes.get(names.indexOf("chosen-cluster-with-fallbacks"));
    assertThat(names.indexOf("chosen-cluster-with-fallbacks"))
        .isEqualTo(names.indexOf("chosen-cluster") - 1);
    assertThat(route.getRoute().getClusterHeader()).isEqualTo(FleetHandler.ROUTE_HEADER);
    assertThat(route.getMatch().getHeadersList())
        .anySatisfy(h -> assertThat(h.getName()).isEqualTo(FleetHandler.ROUTE_HEADER));
    assertThat(route.getRoute().getTimeout().getSeconds()).isZero();
    // the gateway that answered reaches the fleet tier's ext_proc, which counts refusals by it
    assertThat(route.getResponseHeadersToAddList())
        .singleElement()
        .satisfies(
            h -> {
              assertThat(h.getHeader().getKey()).isEqualTo("x-gateway-destination-endpoint-served");
              assertThat(h.getHeader().getValue()).isEqualTo("%UPSTREAM_REMOTE_ADDRESS%");
            });
    RetryPolicy retry = route.getRoute().getRetryPolicy();
    assertThat(Set.of(retry.getRetryOn().split(",")))
        .containsExactlyInAnyOrder(
            "connect-failure", "refused-stream", "reset-before-request", "retriable-headers");
    // the only header that makes a response retriable: a gateway's own "not started" answer
    assertThat(retry.getRetriableHeadersList())
        .singleElement()
        .satisfies(
            h -> {
              assertThat(h.getName()).isEqualTo(Responses.NOT_STARTED);
              assertThat(h.getStringMatch().getExact()).isEqualTo("true");
            });
    assertThat(retry.getNumRetries().getValue()).isEqualTo(2);
    assertThat(retry.getRetryPriority().getName())
        .isEqualTo("envoy.retry_priorities.previous_priorities");
    assertThat(
            EnvoyConfigRules.unpack(
                    retry.getRetryPriority().getTypedConfig(), PreviousPrioritiesConfig.class)
                .getUpdateFrequency())
        .isEqualTo(1);
    assertThat(retry.getRetryHostPredicateList())
        .singleElement()
        .satisfies(
            p -> assertThat(p.getName()).isEqualTo("envoy.retry_host_predicates.previous_hosts"));
    assertThat(
            EnvoyConfigRules.cluster(bootstrap, "us-spot+eu-od")
                .getCircuitBreakers()
                .getThresholds(0)
                .getMaxRetries()
                .getValue())
        .isGreaterThanOrEqualTo(1000);
  }

  @Test
  void theRenderedConfigKeepsTheShippedOnesRulesAndNamesTheReleasesFleetTier() {
    Bootstrap bootstrap =
        EnvoyConfigRules.parse(
            Chart.render("other", "infer", values(""))
                .get(ConfigMap.class, "other-pointsman-fleet-envoy")
                .getData()
                .get("envoy.yaml"));

    EnvoyConfigRules.assertAdminOnLoopback(bootstrap);
    EnvoyConfigRules.assertNoDeprecatedFields(bootstrap);
    Cluster fleet = EnvoyConfigRules.cluster(bootstrap, "pointsman-fleet");
    EnvoyConfigRules.assertPickerCluster(fleet);
    assertThat(EnvoyConfigRules.firstAddress(fleet).getAddress())
        .isEqualTo("other-pointsman-fleet.infer.svc.cluster.local");
  }

  @Test
  void withFleetEnvoyEnabledTheChartRunsItOnTheRenderedBootstrapWithItsCertificates() {
    String envoy =
        values("")
            + """
              envoy:
                enabled: true
                tlsSecretName: fleet-gateway-tls
                clustersCaSecretName: cluster-gateways-ca
            """;
    Rendered r = Chart.render(envoy);
    var deployment = r.get(Deployment.class, CONFIG_MAP);
    var pod = deployment.getSpec().getTemplate().getSpec();
    var container = pod.getContainers().getFirst();
    Service service = r.get(Service.class, CONFIG_MAP);

    assertThat(container.getArgs()).containsSequence("--config-path", "/etc/envoy/envoy.yaml");
    assertThat(container.getVolumeMounts())
        .extracting(VolumeMount::getMountPath)
        .contains(
            "/etc/envoy/envoy.yaml",
            "/etc/envoy/sds",
            "/etc/envoy/tls",
            "/etc/envoy/picker-ca",
            "/etc/envoy/clusters-ca");
    // every file the bootstrap names comes from the rendered ConfigMap or a Secret's key
    assertThat(pod.getVolumes())
        .filteredOn(v -> v.getConfigMap() != null)
        .allSatisfy(v -> assertThat(v.getConfigMap().getName()).isEqualTo(CONFIG_MAP));
    assertThat(pod.getVolumes())
        .filteredOn(v -> v.getSecret() != null)
        .extracting(
            v -> v.getSecret().getSecretName() + ":" + v.getSecret().getItems().getFirst().getKey())
        .containsExactlyInAnyOrder(
            "fleet-gateway-tls:tls.crt", "fleet-tls:ca.crt", "cluster-gateways-ca:ca.crt");
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    assertThat(container.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/ready");
    assertThat(deployment.getSpec().getTemplate().getMetadata().getAnnotations())
        .containsKey("checksum/config");
    assertThat(service.getSpec().getType()).isEqualTo("LoadBalancer");
    assertThat(service.getMetadata().getAnnotations())
        .containsEntry("service.beta.kubernetes.io/aws-load-balancer-scheme", "internal");
    assertThat(service.getSpec().getSelector())
        .isEqualTo(deployment.getSpec().getSelector().getMatchLabels())
        .containsEntry("app.kubernetes.io/component", "fleet-envoy");
    // the bootstrap's listener is the port the Service targets
    assertThat(container.getPorts())
        .anySatisfy(
            p -> {
              assertThat(p.getName()).isEqualTo("https");
              assertThat(p.getContainerPort()).isEqualTo(8443);
            });

    assertThat(Chart.render(values("")).find(Deployment.class, CONFIG_MAP)).isEmpty();
    assertThatThrownBy(
            () -> Chart.render((values("") + "  envoy: {enabled: true, tlsSecretName: x}\n")))
        .hasMessageContaining("fleet.envoy.enabled needs fleet.envoy.tlsSecretName");
  }

  @Test
  void aMemberNameThatCannotNameAnEnvoyClusterOrTooManyFallbacksAreRefused() {
    assertThatThrownBy(() -> Chart.render(values("").replace("name: us-od", "name: us+od")))
        .hasMessageContaining("fleet.config.clusters[1].name: \"us+od\"");
    assertThatThrownBy(
            () -> Chart.render(values("").replace("name: us-od", "name: cluster-gateways")))
        .hasMessageContaining("fleet.config.clusters[1].name: \"cluster-gateways\"");
    assertThatThrownBy(() -> Chart.render(values("fallbacks: 4")))
        .hasMessageContaining("fleet.config.fallbacks: 4 (expected 0..3)");
  }
}
