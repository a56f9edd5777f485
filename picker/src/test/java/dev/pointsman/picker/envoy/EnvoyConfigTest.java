package dev.pointsman.picker.envoy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pointsman.inference.request.InferencePaths;
import dev.pointsman.inference.request.NormalizedPath;
import dev.pointsman.inference.request.PathNormalizer;
import io.envoyproxy.envoy.config.bootstrap.v3.Bootstrap;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.extensions.filters.http.header_mutation.v3.HeaderMutation;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The shipped Envoy bootstrap (deploy/envoy) parses strictly and obeys the protocol's rules. */
class EnvoyConfigTest {
  private static final Path ENVOY_DIR = Path.of("..", "deploy", "envoy");
  private static final Path ENVOY_YAML = ENVOY_DIR.resolve("envoy.yaml");
  private static final Path DOC = Path.of("..", "docs", "envoy.md");

  /** Where the ConfigMap holding deploy/envoy/sds is mounted in the Envoy pod. */
  private static final String SDS_MOUNT = "/etc/envoy/sds/";

  private static final String YAML = EnvoyConfigRules.read(ENVOY_YAML);

  @Test
  void shippedConfigParsesAndObeysEveryRule() {
    Bootstrap bootstrap = EnvoyConfigRules.assertValid(YAML);

    assertThat(bootstrap.getStaticResources().getListenersList())
        .extracting(Listener::getName)
        .containsExactly("https", "health");
    assertThat(bootstrap.getStaticResources().getClustersList())
        .extracting(c -> c.getName())
        .containsExactlyInAnyOrder(
            "model-servers",
            "model-servers-h2c",
            "default-models",
            "pointsman-picker",
            "envoy-admin");
  }

  @Test
  void anH2cPoolsPickGoesToTheSamePodOverHttp2AndOthersStayOnHttp1() {
    Bootstrap bootstrap = EnvoyConfigRules.parse(YAML);
    VirtualHost host = mainVirtualHost(bootstrap);

    for (String path : InferencePaths.DEFAULT_ROUTED) {
      Route h2c = EnvoyConfigRules.firstMatch(host, "POST", path, true, EnvoyConfigRules.H2C);
      Route http = EnvoyConfigRules.firstMatch(host, "POST", path, true, null);
      Route other = EnvoyConfigRules.firstMatch(host, "POST", path, true, "http");
      assertThat(h2c.getName()).isEqualTo("picked-h2c");
      assertThat(h2c.getRoute().getCluster()).isEqualTo("model-servers-h2c");
      assertThat(h2c.getRequestHeadersToRemoveList())
          .containsExactly(EnvoyConfigRules.APP_PROTOCOL_HEADER);
      assertThat(http.getName()).isEqualTo("picked");
      assertThat(other.getName()).isEqualTo("picked");
      // without a pick the protocol header changes nothing
      assertThat(EnvoyConfigRules.firstMatch(host, "POST", path, false, EnvoyConfigRules.H2C))
          .extracting(Route::getName)
          .isEqualTo("fallback-default");
      assertThat(h2c.getRoute().getTimeout()).isEqualTo(http.getRoute().getTimeout());
      assertThat(h2c.getRoute().getIdleTimeout()).isEqualTo(http.getRoute().getIdleTimeout());
    }
    var h1 = EnvoyConfigRules.cluster(bootstrap, "model-servers");
    var h2 = EnvoyConfigRules.cluster(bootstrap, "model-servers-h2c");
    assertThat(EnvoyConfigRules.upstreamProtocol(h2).hasHttp2ProtocolOptions()).isTrue();
    assertThat(EnvoyConfigRules.upstreamProtocol(h1).hasHttpProtocolOptions()).isTrue();
    assertThat(h2.hasTransportSocket()).isFalse();
    // apart from the protocol, the two clusters are the same
    assertThat(
            h2.toBuilder()
                .setName(h1.getName())
                .clearTypedExtensionProtocolOptions()
                .putAllTypedExtensionProtocolOptions(h1.getTypedExtensionProtocolOptionsMap())
                .build())
        .isEqualTo(h1);
  }

  @Test
  void everyListenerIsDualStackForIpv6OnlyClusters() {
    Bootstrap bootstrap = EnvoyConfigRules.parse(YAML);

    assertThat(bootstrap.getStaticResources().getListenersList())
        .allSatisfy(
            l -> {
              var address = l.getAddress().getSocketAddress();
              assertThat(address.getAddress()).as(l.getName()).isEqualTo("::");
              assertThat(address.getIpv4Compat()).as(l.getName()).isTrue();
              assertThat(l.getAdditionalAddressesList()).as(l.getName()).isEmpty();
            });
    // The upstream clusters resolve names to IPv4 where there is one, else to IPv6.
    for (String name : List.of("default-models", "pointsman-picker")) {
      assertThat(EnvoyConfigRules.cluster(bootstrap, name).getDnsLookupFamily())
          .as(name)
          .isEqualTo(io.envoyproxy.envoy.config.cluster.v3.Cluster.DnsLookupFamily.V4_PREFERRED);
    }
  }

  @Test
  void shippedConfigFailsClosedAsDocumented() {
    Bootstrap bootstrap = EnvoyConfigRules.parse(YAML);

    assertThat(EnvoyConfigRules.failureModeAllow(bootstrap)).isFalse();
    assertThat(EnvoyConfigRules.read(DOC)).contains("`failure_mode_allow: false`");
  }

  @Test
  void aPickerOutageIsA503ThatSaysNoModelServerSawTheRequest() {
    HttpConnectionManager hcm = mainConnectionManager(EnvoyConfigRules.parse(YAML));

    // only the gateway's own 500s (ext_proc unreachable) are remapped: 503, retry-after, and the
    // marker a fleet Envoy in front resends on (Responses.NOT_STARTED)
    assertThat(hcm.getLocalReplyConfig().getMappersList())
        .singleElement()
        .satisfies(
            m -> {
              assertThat(
                      m.getFilter()
                          .getStatusCodeFilter()
                          .getComparison()
                          .getValue()
                          .getDefaultValue())
                  .isEqualTo(500);
              assertThat(m.getStatusCode().getValue()).isEqualTo(503);
              assertThat(m.getHeadersToAddList())
                  .extracting(h -> h.getHeader().getKey() + "=" + h.getHeader().getValue())
                  .containsExactlyInAnyOrder(
                      "retry-after=1", dev.pointsman.extproc.Responses.NOT_STARTED + "=true");
            });
  }

  @Test
  void requestsRouteToThePickedPodOrElseToTheFallbackService() {
    Bootstrap bootstrap = EnvoyConfigRules.parse(YAML);
    VirtualHost host = mainVirtualHost(bootstrap);

    Route picked = EnvoyConfigRules.firstMatch(host, "POST", "/v1/chat/completions", true);
    Route fallback = EnvoyConfigRules.firstMatch(host, "POST", "/v1/chat/completions", false);

    assertThat(picked.getRoute().getCluster()).isEqualTo("model-servers");
    assertThat(fallback.getRoute().getCluster()).isEqualTo("default-models");
    assertThat(fallback.getMatch().getHeaders(1).hasPresentMatch()).isTrue();
    assertThat(fallback.getMatch().getHeaders(1).getPresentMatch()).isFalse();
    assertThat(EnvoyConfigRules.cluster(bootstrap, "default-models").getLoadAssignment())
        .satisfies(
            la ->
                assertThat(
                        la.getEndpoints(0)
                            .getLbEndpoints(0)
                            .getEndpoint()
                            .getAddress()
                            .getSocketAddress()
                            .getAddress())
                    .isEqualTo("vllm-default.models.svc.cluster.local"));
  }

  /**
   * Shadow mode on a stock Envoy: the fallback route (where every request goes when the picker
   * names no destination) adds the upstream host as a response header, which the ext_proc filter
   * receives (response headers are sent to it) and the header_mutation filter, running after
   * ext_proc on the response path, removes before the client.
   */
  @Test
  void theFallbackRouteTellsThePickerWhichPodServedAndTheClientNever() {
    Bootstrap bootstrap = EnvoyConfigRules.parse(YAML);
    HttpConnectionManager hcm = mainConnectionManager(bootstrap);
    Route fallback =
        EnvoyConfigRules.firstMatch(
            mainVirtualHost(bootstrap), "POST", "/v1/chat/completions", false);

    assertThat(fallback.getResponseHeadersToAddList())
        .singleElement()
        .satisfies(
            h -> {
              assertThat(h.getHeader().getKey()).isEqualTo(EnvoyConfigRules.SERVED_HEADER);
              assertThat(h.getHeader().getValue()).isEqualTo("%UPSTREAM_HOST%");
              assertThat(h.getAppendAction())
                  .isEqualTo(
                      io.envoyproxy.envoy.config.core.v3.HeaderValueOption.HeaderAppendAction
                          .ADD_IF_ABSENT);
            });
    assertThat(EnvoyConfigRules.extProc(hcm).getProcessingMode().getResponseHeaderMode())
        .isEqualTo(
            io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ProcessingMode.HeaderSendMode
                .SEND);
    List<String> names = hcm.getHttpFiltersList().stream().map(HttpFilter::getName).toList();
    int mutation = names.indexOf("envoy.filters.http.header_mutation");
    assertThat(mutation).isLessThan(names.indexOf("envoy.filters.http.ext_proc"));
    assertThat(
            EnvoyConfigRules.unpack(
                    hcm.getHttpFilters(mutation).getTypedConfig(), HeaderMutation.class)
                .getMutations()
                .getResponseMutationsList())
        .extracting(m -> m.getRemove())
        .containsExactly(EnvoyConfigRules.SERVED_HEADER);
  }

  /** Prometheus reads Envoy's stats on the health port; no other admin path is reachable. */
  @Test
  void theHealthListenerExposesOnlyTheAdminsPrometheusStats() {
    Bootstrap bootstrap = EnvoyConfigRules.parse(YAML);
    Listener health =
        bootstrap.getStaticResources().getListenersList().stream()
            .filter(l -> l.getName().equals("health"))
            .findFirst()
            .orElseThrow();
    List<Route> routes =
        EnvoyConfigRules.connectionManagers(health)
            .get(0)
            .getRouteConfig()
            .getVirtualHosts(0)
            .getRoutesList();
    List<Route> forwarded = routes.stream().filter(Route::hasRoute).toList();

    assertThat(forwarded)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.getMatch().getPath()).isEqualTo("/stats/prometheus");
              assertThat(r.getRoute().getCluster()).isEqualTo("envoy-admin");
            });
    var admin = EnvoyConfigRules.cluster(bootstrap, "envoy-admin");
    var address =
        admin.getLoadAssignment().getEndpoints(0).getLbEndpoints(0).getEndpoint().getAddress();
    assertThat(address.getSocketAddress().getAddress())
        .isEqualTo(bootstrap.getAdmin().getAddress().getSocketAddress().getAddress());
    assertThat(address.getSocketAddress().getPortValue())
        .isEqualTo(bootstrap.getAdmin().getAddress().getSocketAddress().getPortValue());
  }

  @Test
  void aRouteAddingTheServedHeaderWithoutTheResponseStripIsReported() {
    String yaml =
        YAML.replace(
            " ".repeat(24)
                + "response_mutations:\n"
                + " ".repeat(26)
                + "- remove: x-gateway-destination-endpoint-served\n",
            "");
    assertThat(yaml).isNotEqualTo(YAML);
    assertThatThrownBy(() -> EnvoyConfigRules.assertValid(yaml))
        .hasMessageContaining("does not remove it from responses");
  }

  /** Each bypass, normalised as Envoy does, is refused by Envoy itself: 400, or a 404 route. */
  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("bypasses")
  void aRequestOffTheInferenceApiNeverReachesAModelServerOrThePicker(String method, String path) {
    VirtualHost host = mainVirtualHost(EnvoyConfigRules.parse(YAML));

    switch (PathNormalizer.normalize(path)) {
      case NormalizedPath.Invalid i ->
          assertThat(
                  mainConnectionManager(EnvoyConfigRules.parse(YAML))
                      .getPathWithEscapedSlashesAction())
              .as("refused with 400 before routing: %s", i.reason())
              .isEqualTo(HttpConnectionManager.PathWithEscapedSlashesAction.REJECT_REQUEST);
      case NormalizedPath.Valid v -> {
        for (boolean forgedDestination : List.of(false, true)) {
          Route route = EnvoyConfigRules.firstMatch(host, method, v.path(), forgedDestination);
          assertThat(route.getName()).isEqualTo("not-inference");
          assertThat(route.hasRoute()).isFalse();
          assertThat(route.getDirectResponse().getStatus()).isEqualTo(404);
          assertThat(route.getTypedPerFilterConfigMap()).containsKey("envoy.filters.http.ext_proc");
        }
      }
    }
  }

  static Stream<Arguments> bypasses() {
    return EnvoyConfigRules.NOT_ROUTED.stream().map(r -> Arguments.of(r.get(0), r.get(1)));
  }

  @Test
  void theInferenceApiIsRoutedAndTheListingGoesToThePicker() {
    VirtualHost host = mainVirtualHost(EnvoyConfigRules.parse(YAML));

    for (String path : InferencePaths.DEFAULT_ROUTED) {
      assertThat(EnvoyConfigRules.firstMatch(host, "POST", path, true).getName())
          .isEqualTo("picked");
      assertThat(EnvoyConfigRules.firstMatch(host, "POST", path, false).getName())
          .isEqualTo("fallback-default");
      assertThat(EnvoyConfigRules.firstMatch(host, "GET", path, true).getName())
          .isEqualTo("not-inference");
    }
    assertThat(EnvoyConfigRules.firstMatch(host, "GET", "/v1/models", false).getName())
        .isEqualTo("models");
    assertThat(EnvoyConfigRules.firstMatch(host, "HEAD", "/v1/models/org/model", false).getName())
        .isEqualTo("models");
    assertThat(EnvoyConfigRules.firstMatch(host, "GET", "/v1/models/", false).getName())
        .isEqualTo("not-inference");
  }

  @Test
  void routingHeadersAreStrippedBeforeRoutingAndAgainBeforeExtProc() {
    HttpConnectionManager hcm = mainConnectionManager(EnvoyConfigRules.parse(YAML));
    HttpFilter filter = hcm.getHttpFilters(0);

    List<String> filterRemoves = EnvoyConfigRules.removedByFirstFilter(hcm);
    List<String> earlyRemoves = EnvoyConfigRules.removedEarly(hcm);

    assertThat(filter.getName()).isEqualTo("envoy.filters.http.header_mutation");
    assertThat(filterRemoves).containsAll(EnvoyConfigRules.STRIPPED_HEADERS);
    assertThat(earlyRemoves).isEqualTo(filterRemoves);
    assertThat(filterRemoves).doesNotContain("x-gateway-inference-objective");
  }

  @Test
  void sdsFilesExistAndMatchTheSecretsTheBootstrapReferences() {
    Bootstrap bootstrap = EnvoyConfigRules.parse(YAML);

    EnvoyConfigRules.assertSdsFiles(bootstrap, EnvoyConfigTest::readMounted);
    assertThat(EnvoyConfigRules.sdsSecretConfigs(bootstrap))
        .extracting(s -> s.getName())
        .containsExactlyInAnyOrder("gateway-tls", "picker-ca");
  }

  @Test
  void everyTypeNamedInTheShippedFilesIsInTheRegistry() throws Exception {
    List<Path> files = new ArrayList<>(List.of(ENVOY_YAML));
    try (Stream<Path> sds = Files.list(ENVOY_DIR.resolve("sds"))) {
      sds.forEach(files::add);
    }
    List<String> types = new ArrayList<>();
    for (Path file : files) {
      collectTypes(EnvoyConfigRules.tree(EnvoyConfigRules.read(file)), types);
    }

    assertThat(types).isNotEmpty();
    for (String type : types) {
      String name = type.substring(type.lastIndexOf('/') + 1);
      assertThat(EnvoyConfigRules.registry().find(name)).as(type).isNotNull();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Strict parsing: what would silently be ignored elsewhere must fail here.
  // ---------------------------------------------------------------------------------------------

  @Test
  void unknownFieldFails() {
    String typo = edit(YAML, "stream_idle_timeout: 600s", "stream_idle_timout: 600s");

    assertThatThrownBy(() -> EnvoyConfigRules.parse(typo))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("stream_idle_timout");
  }

  @Test
  void unknownFieldInsideATypedConfigFails() {
    String typo = edit(YAML, "allow_mode_override: false", "allow_mode_overide: false");

    assertThatThrownBy(() -> EnvoyConfigRules.parse(typo))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("allow_mode_overide");
  }

  @Test
  void unknownTypedConfigTypeFails() {
    String typo =
        edit(
            YAML,
            "envoy.extensions.filters.http.ext_proc.v3.ExternalProcessor",
            "envoy.extensions.filters.http.ext_proc.v3.ExternalProcesor");

    assertThatThrownBy(() -> EnvoyConfigRules.parse(typo))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ExternalProcesor");
  }

  @Test
  void duplicateKeyFails() {
    String twice =
        edit(
            YAML,
            "stream_idle_timeout: 600s\n",
            "stream_idle_timeout: 600s\n                stream_idle_timeout: 1s\n");

    assertThatThrownBy(() -> EnvoyConfigRules.parse(twice))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("stream_idle_timeout");
  }

  @Test
  void unknownFieldInAnSdsFileFails() {
    String sds = EnvoyConfigRules.read(ENVOY_DIR.resolve("sds").resolve("gateway-tls.yaml"));
    String typo = edit(sds, "watched_directory: {", "watched_dir: {");

    assertThat(EnvoyConfigRules.parseSds(sds)).isInstanceOf(DiscoveryResponse.class);
    assertThatThrownBy(() -> EnvoyConfigRules.parseSds(typo))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("watched_dir");
  }

  // ---------------------------------------------------------------------------------------------
  // Each rule catches the mistake it exists for.
  // ---------------------------------------------------------------------------------------------

  static Stream<Arguments> brokenConfigs() {
    return Stream.of(
        broken(
            "h2c pools sent to the HTTP/1.1 cluster",
            "cluster: model-servers-h2c",
            "cluster: model-servers",
            "must speak HTTP/2 cleartext"),
        broken(
            "the h2c route forwards the picker's protocol header",
            "request_headers_to_remove: [x-pointsman-app-protocol]",
            "",
            "must not forward x-pointsman-app-protocol"),
        broken(
            "a client's protocol header not stripped",
            "\n                        - remove: x-pointsman-app-protocol",
            "",
            "x-pointsman-app-protocol"),
        broken(
            "buffered request body",
            "request_body_mode: FULL_DUPLEX_STREAMED",
            "request_body_mode: BUFFERED",
            "request_body_mode is BUFFERED"),
        broken(
            "streamed response body",
            "response_body_mode: FULL_DUPLEX_STREAMED",
            "response_body_mode: STREAMED",
            "response_body_mode is STREAMED"),
        broken(
            "request trailers skipped",
            "request_trailer_mode: SEND",
            "request_trailer_mode: SKIP",
            "request_trailer_mode must be SEND"),
        broken(
            "response trailers skipped",
            "response_trailer_mode: SEND",
            "response_trailer_mode: SKIP",
            "response_trailer_mode must be SEND"),
        broken(
            "envoy.lb metadata not accepted",
            "untyped: [envoy.lb]",
            "untyped: [envoy.lb.other]",
            "receiving_namespaces.untyped must contain envoy.lb"),
        broken(
            "failure_mode_allow left implicit",
            "failure_mode_allow: false\n",
            "",
            "failure_mode_allow must be set explicitly"),
        broken(
            "mode override allowed",
            "allow_mode_override: false",
            "allow_mode_override: true",
            "allow_mode_override must be false"),
        broken(
            "route cache retained",
            "allow_mode_override: false\n",
            "allow_mode_override: false\n                      route_cache_action: RETAIN\n",
            "clear_route_cache"),
        broken(
            "ORIGINAL_DST with round robin",
            "load balancer.\n      lb_policy: CLUSTER_PROVIDED",
            "load balancer.\n      lb_policy: ROUND_ROBIN",
            "ORIGINAL_DST requires lb_policy CLUSTER_PROVIDED"),
        broken(
            "ORIGINAL_DST on the wrong header",
            "fallback list to this data plane).\n        http_header_name: x-gateway-destination-endpoint",
            "fallback list to this data plane).\n        http_header_name: x-envoy-original-dst-host",
            "http_header_name is 'x-envoy-original-dst-host'"),
        broken(
            "slow connect to a dead pod",
            "connect_timeout: 2s\n      # Keep idle",
            "connect_timeout: 30s\n      # Keep idle",
            "connect_timeout must be <= 5 s"),
        broken(
            "no fallback route",
            "present_match: false",
            "present_match: true",
            "no fallback route"),
        broken(
            "default 15 s route timeout",
            "cluster: model-servers\n                            timeout: 0s",
            "cluster: model-servers\n                            timeout: 15s",
            "route 'picked' timeout must be set to 0"),
        broken(
            "stream idle timeout too short",
            "stream_idle_timeout: 600s",
            "stream_idle_timeout: 60s",
            "stream_idle_timeout must be set to >= 300 s"),
        broken(
            "admin on every interface",
            "address: 127.0.0.1, port_value: 9901",
            "address: 0.0.0.0, port_value: 9901",
            "admin: bound to '0.0.0.0'"),
        broken(
            "TLS 1.1 allowed",
            "tls_minimum_protocol_version: TLSv1_2\n                  tls_maximum",
            "tls_minimum_protocol_version: TLSv1_1\n                  tls_maximum",
            "tls_minimum_protocol_version is TLSv1_1"),
        broken(
            "no h2 ALPN",
            "alpn_protocols: [h2, http/1.1]",
            "alpn_protocols: [http/1.1]",
            "lacks h2"),
        broken(
            "destination header not stripped by the filter",
            "                          - remove: x-gateway-destination-endpoint\n",
            "",
            "does not remove client-supplied x-gateway-destination-endpoint"),
        broken(
            "destination header not stripped before routing",
            "\n                        - remove: x-gateway-destination-endpoint\n",
            "\n",
            "early_header_mutation_extensions do not remove x-gateway-destination-endpoint"),
        broken(
            "picker pinned by round robin",
            "lb_policy: LEAST_REQUEST",
            "lb_policy: ROUND_ROBIN",
            "lb_policy ROUND_ROBIN (LEAST_REQUEST)"),
        broken(
            "keepalive faster than the picker permits",
            "interval: 30s",
            "interval: 5s",
            "permitKeepAliveTime"),
        broken(
            "health check on the wrong service",
            "service_name: envoy.service.ext_proc.v3.ExternalProcessor",
            "service_name: liveness",
            "no gRPC health check on service envoy.service.ext_proc.v3.ExternalProcessor"),
        broken(
            "picker circuit breaker at the default",
            "- priority: DEFAULT\n            max_connections: 10000\n"
                + "            max_pending_requests: 100000\n            max_requests: 100000",
            "- priority: DEFAULT\n            max_connections: 10000\n"
                + "            max_pending_requests: 100000\n            max_requests: 1024",
            "(picker): circuit_breakers max_requests must be >= 10000"),
        broken(
            "escaped slashes kept",
            "                path_with_escaped_slashes_action: REJECT_REQUEST\n",
            "",
            "path_with_escaped_slashes_action is IMPLEMENTATION_SPECIFIC_DEFAULT"),
        broken(
            "paths not normalised",
            "normalize_path: true",
            "normalize_path: false",
            "normalize_path must be true"),
        broken(
            "every path routed to the picked pod",
            "- name: picked\n                          match:\n"
                + "                            safe_regex: { regex: \"/v1/(chat/completions|"
                + "completions|embeddings|responses)\" }",
            "- name: picked\n                          match:\n"
                + "                            prefix: /",
            "POST /v1/load_lora_adapter (normalised /v1/load_lora_adapter) takes route 'picked'"),
        broken(
            "the picker asked about other paths",
            "                              disabled: true\n",
            "                              disabled: false\n",
            "route 'not-inference' must disable envoy.filters.http.ext_proc"),
        broken(
            "404 without an OpenAI error",
            "\"type\":\"not_found_error\"",
            "\"type\":\"nope\"",
            "404 body is not an OpenAI not_found_error/unknown_path"),
        broken(
            "deprecated field",
            "lb_policy: LEAST_REQUEST\n",
            "lb_policy: LEAST_REQUEST\n      respect_dns_ttl: true\n",
            "deprecated fields in use"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("brokenConfigs")
  void ruleViolationIsReported(String name, String from, String to, String expected) {
    String edited = edit(YAML, from, to);

    assertThatThrownBy(() -> EnvoyConfigRules.assertValid(edited))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining(expected);
  }

  @Test
  void headerMutationAfterExtProcIsReported() {
    Bootstrap bootstrap = EnvoyConfigRules.parse(YAML);
    Bootstrap.Builder builder = bootstrap.toBuilder();
    var chain =
        builder.getStaticResourcesBuilder().getListenersBuilder(0).getFilterChainsBuilder(0);
    HttpConnectionManager hcm =
        EnvoyConfigRules.unpack(chain.getFilters(0).getTypedConfig(), HttpConnectionManager.class);
    List<HttpFilter> filters = new ArrayList<>(hcm.getHttpFiltersList());
    filters.add(1, filters.remove(0)); // ext_proc, header_mutation, router
    HttpConnectionManager swapped =
        hcm.toBuilder().clearHttpFilters().addAllHttpFilters(filters).build();
    chain.getFiltersBuilder(0).setTypedConfig(com.google.protobuf.Any.pack(swapped));

    assertThatThrownBy(() -> EnvoyConfigRules.assertValid(builder.build()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("must come before envoy.filters.http.ext_proc");
  }

  @Test
  void missingHealthListenerIsReported() {
    Bootstrap.Builder builder = EnvoyConfigRules.parse(YAML).toBuilder();
    builder.getStaticResourcesBuilder().removeListeners(1);

    assertThatThrownBy(() -> EnvoyConfigRules.assertValid(builder.build()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("no health listener");
  }

  @Test
  void sdsFileWithTheWrongSecretNameIsReported() {
    Bootstrap bootstrap = EnvoyConfigRules.parse(YAML);

    assertThatThrownBy(
            () ->
                EnvoyConfigRules.assertSdsFiles(
                    bootstrap,
                    path ->
                        path.endsWith("picker-ca.yaml")
                            ? readMounted(SDS_MOUNT + "gateway-tls.yaml")
                            : readMounted(path)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("SDS secret 'picker-ca': file holds secret 'gateway-tls'");
  }

  // ---------------------------------------------------------------------------------------------

  private static Arguments broken(String name, String from, String to, String expected) {
    return Arguments.of(name, from, to, expected);
  }

  /** Replaces the single occurrence of {@code from}; fails if there is not exactly one. */
  private static String edit(String text, String from, String to) {
    int at = text.indexOf(from);
    assertThat(at).as("'%s' occurs in the config", from).isNotNegative();
    assertThat(text.indexOf(from, at + 1)).as("'%s' occurs only once", from).isNegative();
    return text.substring(0, at) + to + text.substring(at + from.length());
  }

  private static String readMounted(String path) {
    if (!path.startsWith(SDS_MOUNT)) {
      return null;
    }
    Path file = ENVOY_DIR.resolve("sds").resolve(path.substring(SDS_MOUNT.length()));
    return Files.exists(file) ? EnvoyConfigRules.read(file) : null;
  }

  private static HttpConnectionManager mainConnectionManager(Bootstrap bootstrap) {
    return EnvoyConfigRules.connectionManagers(EnvoyConfigRules.gatewayListeners(bootstrap).get(0))
        .get(0);
  }

  private static VirtualHost mainVirtualHost(Bootstrap bootstrap) {
    return mainConnectionManager(bootstrap).getRouteConfig().getVirtualHosts(0);
  }

  private static void collectTypes(JsonNode node, List<String> out) {
    if (node.isObject()) {
      if (node.has("@type")) {
        out.add(node.get("@type").asText());
      }
      node.elements().forEachRemaining(child -> collectTypes(child, out));
    } else if (node.isArray()) {
      node.elements().forEachRemaining(child -> collectTypes(child, out));
    }
  }
}
