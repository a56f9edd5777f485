package dev.pointsman.picker.envoy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.inference.request.InferencePaths;
import io.envoyproxy.envoy.config.bootstrap.v3.Bootstrap;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ExternalProcessor;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The shipped Envoy bootstrap for the fleet tier (deploy/envoy-fleet/envoy.yaml) parses strictly,
 * keeps every hardening rule of the clusters' gateway config, and routes only what the fleet tier
 * placed, to the chosen cluster's gateway over verified TLS.
 */
class FleetEnvoyConfigTest {
  private static final String YAML =
      EnvoyConfigRules.read(Path.of("..", "deploy", "envoy-fleet", "envoy.yaml"));
  private static final String SNI = "gateway.fleet.pointsman.internal";

  @Test
  void parsesAndKeepsTheGatewaysHardening() {
    Bootstrap bootstrap = EnvoyConfigRules.parse(YAML);
    EnvoyConfigRules.assertExplicitFailureMode(EnvoyConfigRules.tree(YAML));
    EnvoyConfigRules.assertAdminOnLoopback(bootstrap);
    EnvoyConfigRules.assertNoDeprecatedFields(bootstrap);
    EnvoyConfigRules.assertHealthListener(bootstrap);
    List<Listener> listeners = EnvoyConfigRules.gatewayListeners(bootstrap);
    assertThat(listeners).extracting(Listener::getName).containsExactly("https");
    for (Listener listener : listeners) {
      EnvoyConfigRules.assertDownstreamTls(listener);
      for (HttpConnectionManager hcm : EnvoyConfigRules.connectionManagers(listener)) {
        EnvoyConfigRules.assertConnectionManager(listener, hcm);
        EnvoyConfigRules.assertFilterChain(listener, hcm);
        EnvoyConfigRules.assertExtProc(bootstrap, listener, hcm);
        EnvoyConfigRules.assertOnlyInferenceIsRouted(
            "listener https: ", hcm, hcm.getRouteConfig().getVirtualHosts(0));
      }
    }
    assertThat(EnvoyConfigRules.failureModeAllow(bootstrap)).isFalse();
  }

  @Test
  void theExtProcServiceIsTheFleetTierVerifiedByItsName() {
    Bootstrap bootstrap = EnvoyConfigRules.parse(YAML);
    ExternalProcessor extProc = EnvoyConfigRules.extProc(connectionManager(bootstrap));
    String name = extProc.getGrpcService().getEnvoyGrpc().getClusterName();
    assertThat(name).isEqualTo("pointsman-fleet");
    Cluster fleet = EnvoyConfigRules.cluster(bootstrap, name);
    EnvoyConfigRules.assertPickerCluster(fleet);
    UpstreamTlsContext tls =
        EnvoyConfigRules.unpack(
            fleet.getTransportSocket().getTypedConfig(), UpstreamTlsContext.class);
    assertThat(tls.getSni()).isEqualTo("pointsman-fleet.pointsman.svc");
    assertThat(
            tls.getCommonTlsContext()
                .getCombinedValidationContext()
                .getDefaultValidationContext()
                .getMatchTypedSubjectAltNames(0)
                .getMatcher()
                .getExact())
        .isEqualTo(tls.getSni());
  }

  @Test
  void aPlacedRequestGoesToTheChosenGatewayOverVerifiedTlsAndAnUnplacedOneNowhere() {
    Bootstrap bootstrap = EnvoyConfigRules.parse(YAML);
    VirtualHost host = connectionManager(bootstrap).getRouteConfig().getVirtualHosts(0);
    for (String path : InferencePaths.DEFAULT_ROUTED) {
      Route placed = EnvoyConfigRules.firstMatch(host, "POST", path, true);
      assertThat(placed.getRoute().getCluster()).as(path).isEqualTo("cluster-gateways");
      Route unplaced = EnvoyConfigRules.firstMatch(host, "POST", path, false);
      assertThat(unplaced.hasDirectResponse()).as(path).isTrue();
      assertThat(unplaced.getDirectResponse().getStatus()).isEqualTo(503);
    }
    Cluster gateways = EnvoyConfigRules.cluster(bootstrap, "cluster-gateways");
    EnvoyConfigRules.assertOriginalDst(gateways);
    UpstreamTlsContext tls =
        EnvoyConfigRules.unpack(
            gateways.getTransportSocket().getTypedConfig(), UpstreamTlsContext.class);
    var validation = tls.getCommonTlsContext().getValidationContext();
    assertThat(tls.getSni()).isEqualTo(SNI);
    assertThat(validation.getTrustedCa().getFilename()).isEqualTo("/etc/envoy/clusters-ca/ca.crt");
    assertThat(validation.getMatchTypedSubjectAltNames(0).getMatcher().getExact()).isEqualTo(SNI);
    // the listing reaches the fleet tier (which answers it); it has no route of its own to a
    // cluster
    Route listing = EnvoyConfigRules.firstMatch(host, "GET", "/v1/models", false);
    assertThat(listing.getName()).isEqualTo("models");
  }

  @Test
  void routingHeadersAreStrippedBeforeRoutingAndAgainBeforeTheFleetTier() {
    HttpConnectionManager hcm = connectionManager(EnvoyConfigRules.parse(YAML));
    List<String> filterRemoves = EnvoyConfigRules.removedByFirstFilter(hcm);
    List<String> earlyRemoves = EnvoyConfigRules.removedEarly(hcm);
    assertThat(filterRemoves).containsAll(EnvoyConfigRules.STRIPPED_HEADERS);
    // and the fleet tier's own: a client must not name the fallbacks or the route key
    assertThat(filterRemoves).containsAll(dev.pointsman.extproc.RoutingHeaders.STRIPPED);
    assertThat(earlyRemoves).isEqualTo(filterRemoves);
  }

  private static HttpConnectionManager connectionManager(Bootstrap bootstrap) {
    Listener https = EnvoyConfigRules.gatewayListeners(bootstrap).get(0);
    return EnvoyConfigRules.connectionManagers(https).get(0);
  }
}
