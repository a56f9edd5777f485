package dev.pointsman.picker.envoy;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.google.protobuf.Any;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Duration;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import dev.pointsman.inference.request.InferencePaths;
import dev.pointsman.inference.request.NormalizedPath;
import dev.pointsman.inference.request.PathNormalizer;
import io.envoyproxy.envoy.config.bootstrap.v3.Bootstrap;
import io.envoyproxy.envoy.config.cluster.v3.CircuitBreakers;
import io.envoyproxy.envoy.config.cluster.v3.Cluster;
import io.envoyproxy.envoy.config.core.v3.ApiVersion;
import io.envoyproxy.envoy.config.core.v3.HealthCheck;
import io.envoyproxy.envoy.config.core.v3.Http2ProtocolOptions;
import io.envoyproxy.envoy.config.core.v3.RoutingPriority;
import io.envoyproxy.envoy.config.core.v3.SocketAddress;
import io.envoyproxy.envoy.config.core.v3.TransportSocket;
import io.envoyproxy.envoy.config.listener.v3.Filter;
import io.envoyproxy.envoy.config.listener.v3.FilterChain;
import io.envoyproxy.envoy.config.listener.v3.Listener;
import io.envoyproxy.envoy.config.route.v3.HeaderMatcher;
import io.envoyproxy.envoy.config.route.v3.Route;
import io.envoyproxy.envoy.config.route.v3.RouteMatch;
import io.envoyproxy.envoy.config.route.v3.VirtualHost;
import io.envoyproxy.envoy.extensions.access_loggers.stream.v3.StderrAccessLog;
import io.envoyproxy.envoy.extensions.access_loggers.stream.v3.StdoutAccessLog;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ExtProcPerRoute;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ExternalProcessor;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ProcessingMode;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ProcessingMode.BodySendMode;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ProcessingMode.HeaderSendMode;
import io.envoyproxy.envoy.extensions.filters.http.header_mutation.v3.HeaderMutation;
import io.envoyproxy.envoy.extensions.filters.http.router.v3.Router;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager;
import io.envoyproxy.envoy.extensions.filters.network.http_connection_manager.v3.HttpFilter;
import io.envoyproxy.envoy.extensions.resource_monitors.downstream_connections.v3.DownstreamConnectionsConfig;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.CommonTlsContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.DownstreamTlsContext;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.SdsSecretConfig;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.Secret;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.TlsParameters.TlsProtocol;
import io.envoyproxy.envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext;
import io.envoyproxy.envoy.extensions.upstreams.http.v3.HttpProtocolOptions;
import io.envoyproxy.envoy.service.discovery.v3.DiscoveryResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Validates a Pointsman Envoy bootstrap without an Envoy binary: parses YAML into Envoy's own
 * {@link Bootstrap} protobuf (every {@code typed_config} resolved through a type registry, unknown
 * fields and unknown types rejected) and asserts the cross-field rules the picker protocol needs,
 * which protobuf parsing alone cannot check (docs/envoy.md lists them).
 *
 * <p>Reusable: the Helm chart tests validate their rendered Envoy config with {@link
 * #assertValid(String)} (or {@link #parse(String)} + {@link #assertValid(Bootstrap)}) and {@link
 * #assertSdsFiles(Bootstrap, Function)}.
 */
public final class EnvoyConfigRules {
  /** The header (and {@code envoy.lb} metadata key) that carries the picked {@code ip:port}. */
  public static final String DESTINATION_HEADER = "x-gateway-destination-endpoint";

  /** The header in which the picker names an h2c pool's protocol (absent for HTTP/1.1). */
  public static final String APP_PROTOCOL_HEADER = "x-pointsman-app-protocol";

  /**
   * The response header a route adds from {@code %UPSTREAM_HOST%} to tell the picker which pod
   * served (shadow mode); it must never reach a client.
   */
  public static final String SERVED_HEADER = "x-gateway-destination-endpoint-served";

  /** Its value for HTTP/2 cleartext with prior knowledge. */
  public static final String H2C = "kubernetes.io/h2c";

  /** Client-supplied headers that must never survive to the picker or the router. */
  public static final List<String> STRIPPED_HEADERS =
      List.of(
          DESTINATION_HEADER,
          "x-gateway-destination-endpoint-subset",
          "x-gateway-destination-endpoint-served",
          "x-gateway-model-name",
          "x-gateway-base-model-name",
          "x-gateway-model-name-rewrite",
          APP_PROTOCOL_HEADER);

  /** The gRPC health service name the picker reports once it can serve ext_proc. */
  public static final String EXT_PROC_HEALTH_SERVICE =
      "envoy.service.ext_proc.v3.ExternalProcessor";

  /**
   * Requests that must never reach a model server, as clients send them (method, path): a model
   * server's admin API and metrics, and the same behind dot segments, doubled slashes, escapes and
   * backslashes. Each must be refused by Envoy's path normalisation (400) or, normalised, match a
   * 404 direct response that does not call the picker.
   */
  public static final List<List<String>> NOT_ROUTED =
      List.of(
          List.of("POST", "/v1/load_lora_adapter"),
          List.of("POST", "/v1/unload_lora_adapter"),
          List.of("POST", "/v1/../admin/faults"),
          List.of("POST", "/admin/faults"),
          List.of("POST", "/metrics"),
          List.of("GET", "/metrics"),
          List.of("POST", "//v1/load_lora_adapter"),
          List.of("POST", "/v1/%2e%2e/admin/faults"),
          List.of("POST", "/v1/chat/completions/../../metrics"),
          List.of("POST", "/v1/chat%2Fcompletions"),
          List.of("POST", "/v1/completions/..%2f..%2fadmin/faults"),
          List.of("POST", "/v1\\..\\admin\\faults"),
          List.of("POST", "/v1/chat/completions%5C..%5C..%5Cmetrics"),
          List.of("POST", "/v1/models"),
          List.of("GET", "/v1/chat/completions"),
          List.of("POST", "/v1/chat/completions/"),
          List.of("POST", "/"),
          List.of("GET", "/health"));

  static final String HEADER_MUTATION_FILTER = "envoy.filters.http.header_mutation";
  static final String EXT_PROC_FILTER = "envoy.filters.http.ext_proc";
  static final String ROUTER_FILTER = "envoy.filters.http.router";

  /** The fastest keepalive ping the picker tolerates (grpc.permitKeepAliveTime). */
  static final long PICKER_PERMIT_KEEPALIVE_SECONDS = 10;

  static final long MIN_STREAM_IDLE_SECONDS = 5 * 60;
  static final long MIN_FINITE_ROUTE_TIMEOUT_SECONDS = 60 * 60;
  static final long MAX_MODEL_CONNECT_TIMEOUT_SECONDS = 5;
  static final long MIN_CIRCUIT_BREAKER = 10_000;

  private static final JsonFormat.TypeRegistry REGISTRY =
      JsonFormat.TypeRegistry.newBuilder()
          .add(
              List.of(
                  HttpConnectionManager.getDescriptor(),
                  ExternalProcessor.getDescriptor(),
                  ExtProcPerRoute.getDescriptor(),
                  Router.getDescriptor(),
                  HeaderMutation.getDescriptor(),
                  io.envoyproxy.envoy.extensions.http.early_header_mutation.header_mutation.v3
                      .HeaderMutation.getDescriptor(),
                  io.envoyproxy.envoy.extensions.filters.http.health_check.v3.HealthCheck
                      .getDescriptor(),
                  DownstreamTlsContext.getDescriptor(),
                  UpstreamTlsContext.getDescriptor(),
                  HttpProtocolOptions.getDescriptor(),
                  Secret.getDescriptor(),
                  StdoutAccessLog.getDescriptor(),
                  StderrAccessLog.getDescriptor(),
                  DownstreamConnectionsConfig.getDescriptor(),
                  io.envoyproxy.envoy.extensions.clusters.aggregate.v3.ClusterConfig
                      .getDescriptor(),
                  io.envoyproxy.envoy.extensions.retry.priority.previous_priorities.v3
                      .PreviousPrioritiesConfig.getDescriptor(),
                  io.envoyproxy.envoy.extensions.retry.host.previous_hosts.v3.PreviousHostsPredicate
                      .getDescriptor()))
          .build();

  private static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory()).enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
  private static final ObjectMapper JSON = new ObjectMapper();

  private EnvoyConfigRules() {}

  /** Every {@code typed_config} type an accepted config may use. */
  public static JsonFormat.TypeRegistry registry() {
    return REGISTRY;
  }

  /**
   * Parses an Envoy bootstrap. Unknown fields, unknown {@code @type}s, duplicate keys and ill-typed
   * values throw {@link IllegalArgumentException} naming the problem.
   */
  public static Bootstrap parse(String yaml) {
    Bootstrap.Builder builder = Bootstrap.newBuilder();
    merge(yaml, builder);
    return builder.build();
  }

  /** Parses a file-based SDS resource (a {@code DiscoveryResponse} of {@code Secret}s). */
  public static DiscoveryResponse parseSds(String yaml) {
    DiscoveryResponse.Builder builder = DiscoveryResponse.newBuilder();
    merge(yaml, builder);
    return builder.build();
  }

  /** Reads a UTF-8 file. */
  public static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file.toAbsolutePath(), e);
    }
  }

  /**
   * Parses {@code yaml}, applies every rule (the protobuf ones and the ones that need the source
   * text, such as an explicit {@code failure_mode_allow}) and returns the bootstrap.
   */
  public static Bootstrap assertValid(String yaml) {
    Bootstrap bootstrap = parse(yaml);
    List<String> violations = new ArrayList<>();
    collect(violations, () -> assertExplicitFailureMode(tree(yaml)));
    collect(violations, () -> assertValid(bootstrap));
    throwIfAny(violations);
    return bootstrap;
  }

  /** Applies every protobuf-level rule and reports all violations at once. */
  public static void assertValid(Bootstrap bootstrap) {
    List<String> violations = new ArrayList<>();
    collect(violations, () -> assertAdminOnLoopback(bootstrap));
    collect(violations, () -> assertNoDeprecatedFields(bootstrap));
    List<Listener> gateways = gatewayListeners(bootstrap);
    if (gateways.isEmpty()) {
      violations.add("no listener has an HTTP connection manager with the " + EXT_PROC_FILTER);
    }
    for (Listener listener : gateways) {
      collect(violations, () -> assertDownstreamTls(listener));
      for (HttpConnectionManager hcm : connectionManagers(listener)) {
        collect(violations, () -> assertConnectionManager(listener, hcm));
        collect(violations, () -> assertFilterChain(listener, hcm));
        collect(violations, () -> assertExtProc(bootstrap, listener, hcm));
        collect(violations, () -> assertRoutes(bootstrap, listener, hcm));
      }
    }
    collect(violations, () -> assertHealthListener(bootstrap));
    throwIfAny(violations);
  }

  // ----------------------------------------------------------------------------------------------
  // Rules. Each throws AssertionError with a message that names the listener/cluster at fault.
  // ----------------------------------------------------------------------------------------------

  /** The admin interface must listen on loopback only. */
  public static void assertAdminOnLoopback(Bootstrap bootstrap) {
    if (!bootstrap.hasAdmin() || !bootstrap.getAdmin().hasAddress()) {
      return; // no admin interface at all is fine
    }
    SocketAddress address = bootstrap.getAdmin().getAddress().getSocketAddress();
    check(
        Set.of("127.0.0.1", "::1").contains(address.getAddress()),
        "admin: bound to '" + address.getAddress() + "' (expected 127.0.0.1 or ::1)");
  }

  /** TLS 1.2+, ALPN h2, and a certificate that reloads from files. */
  public static void assertDownstreamTls(Listener listener) {
    String where = "listener " + listener.getName();
    check(listener.getFilterChainsCount() > 0, where + ": no filter chains");
    for (FilterChain chain : listener.getFilterChainsList()) {
      TransportSocket socket = chain.getTransportSocket();
      check(
          socket.getTypedConfig().is(DownstreamTlsContext.class),
          where + ": filter chain without a DownstreamTlsContext transport socket (plain HTTP)");
      CommonTlsContext tls =
          unpack(socket.getTypedConfig(), DownstreamTlsContext.class).getCommonTlsContext();
      TlsProtocol min = tls.getTlsParams().getTlsMinimumProtocolVersion();
      check(
          min == TlsProtocol.TLSv1_2 || min == TlsProtocol.TLSv1_3,
          where + ": tls_minimum_protocol_version is " + min + " (expected TLSv1_2 or TLSv1_3)");
      check(
          tls.getAlpnProtocolsList().contains("h2"),
          where + ": alpn_protocols " + tls.getAlpnProtocolsList() + " lacks h2");
      boolean sdsFromFile =
          tls.getTlsCertificateSdsSecretConfigsCount() > 0
              && tls.getTlsCertificateSdsSecretConfigsList().stream()
                  .allMatch(s -> s.getSdsConfig().hasPathConfigSource());
      boolean watchedFiles =
          tls.getTlsCertificatesCount() > 0
              && tls.getTlsCertificatesList().stream().allMatch(c -> c.hasWatchedDirectory());
      check(
          sdsFromFile || watchedFiles,
          where
              + ": the certificate must reload from files (SDS with path_config_source, or"
              + " tls_certificates with watched_directory)");
    }
  }

  /** Timeouts fit for long generations, client address, request ids. */
  public static void assertConnectionManager(Listener listener, HttpConnectionManager hcm) {
    String where = "listener " + listener.getName() + ": ";
    check(
        hcm.hasStreamIdleTimeout()
            && hcm.getStreamIdleTimeout().getSeconds() >= MIN_STREAM_IDLE_SECONDS,
        where
            + "stream_idle_timeout must be set to >= "
            + MIN_STREAM_IDLE_SECONDS
            + " s (silent gaps in SSE streams), got "
            + show(hcm.getStreamIdleTimeout()));
    check(
        isUnlimitedOrLong(hcm.getRequestTimeout()),
        where + "request_timeout must be 0 (none) or >= 1 h, got " + show(hcm.getRequestTimeout()));
    check(
        hcm.hasUseRemoteAddress() && hcm.getUseRemoteAddress().getValue(),
        where + "use_remote_address must be true (an edge proxy)");
    check(
        !hcm.hasGenerateRequestId() || hcm.getGenerateRequestId().getValue(),
        where + "generate_request_id must not be false");
    check(hcm.hasMaxRequestHeadersKb(), where + "max_request_headers_kb must be set explicitly");
    if (hcm.getEarlyHeaderMutationExtensionsCount() > 0) {
      Set<String> removed = earlyRemovedHeaders(hcm);
      for (String header : STRIPPED_HEADERS) {
        check(
            removed.contains(header),
            where + "early_header_mutation_extensions do not remove " + header);
      }
    }
  }

  /** header_mutation (stripping x-gateway-*) before ext_proc, router last. */
  public static void assertFilterChain(Listener listener, HttpConnectionManager hcm) {
    String where = "listener " + listener.getName() + ": http_filters ";
    List<String> names = hcm.getHttpFiltersList().stream().map(HttpFilter::getName).toList();
    int mutation = names.indexOf(HEADER_MUTATION_FILTER);
    int extProc = names.indexOf(EXT_PROC_FILTER);
    check(mutation >= 0, where + names + " lack " + HEADER_MUTATION_FILTER);
    check(
        mutation < extProc,
        where + names + ": " + HEADER_MUTATION_FILTER + " must come before " + EXT_PROC_FILTER);
    check(
        !names.isEmpty() && names.get(names.size() - 1).equals(ROUTER_FILTER),
        where + names + ": " + ROUTER_FILTER + " must be last");
    check(
        names.stream().filter(EXT_PROC_FILTER::equals).count() == 1,
        where + names + ": exactly one " + EXT_PROC_FILTER + " expected");
    HttpFilter filter = hcm.getHttpFilters(mutation);
    check(
        filter.getTypedConfig().is(HeaderMutation.class),
        where
            + HEADER_MUTATION_FILTER
            + " has typed_config "
            + filter.getTypedConfig().getTypeUrl());
    HeaderMutation config = unpack(filter.getTypedConfig(), HeaderMutation.class);
    Set<String> removed =
        config.getMutations().getRequestMutationsList().stream()
            .filter(m -> m.hasRemove())
            .map(m -> m.getRemove().toLowerCase(java.util.Locale.ROOT))
            .collect(java.util.stream.Collectors.toSet());
    for (String header : STRIPPED_HEADERS) {
      check(
          removed.contains(header),
          where + HEADER_MUTATION_FILTER + " does not remove client-supplied " + header);
    }
    boolean servedAdded =
        hcm.getRouteConfig().getVirtualHostsList().stream()
            .flatMap(v -> v.getRoutesList().stream())
            .flatMap(r -> r.getResponseHeadersToAddList().stream())
            .anyMatch(h -> h.getHeader().getKey().equalsIgnoreCase(SERVED_HEADER));
    boolean servedRemoved =
        config.getMutations().getResponseMutationsList().stream()
            .anyMatch(m -> m.hasRemove() && m.getRemove().equalsIgnoreCase(SERVED_HEADER));
    check(
        !servedAdded || servedRemoved,
        where
            + "a route adds "
            + SERVED_HEADER
            + " (a pod address, for the picker) but "
            + HEADER_MUTATION_FILTER
            + " does not remove it from responses");
  }

  /** The ext_proc filter speaks the Endpoint Picker Protocol to a well-configured picker. */
  public static void assertExtProc(
      Bootstrap bootstrap, Listener listener, HttpConnectionManager hcm) {
    String where = "listener " + listener.getName() + ": ext_proc ";
    ExternalProcessor ext = extProc(hcm);
    ProcessingMode mode = ext.getProcessingMode();
    check(
        mode.getRequestHeaderMode() == HeaderSendMode.SEND
            || mode.getRequestHeaderMode() == HeaderSendMode.DEFAULT,
        where + "request_header_mode must be SEND");
    check(
        mode.getResponseHeaderMode() == HeaderSendMode.SEND
            || mode.getResponseHeaderMode() == HeaderSendMode.DEFAULT,
        where + "response_header_mode must be SEND");
    check(
        mode.getRequestBodyMode() == BodySendMode.FULL_DUPLEX_STREAMED,
        where + "request_body_mode is " + mode.getRequestBodyMode() + " (FULL_DUPLEX_STREAMED)");
    check(
        mode.getResponseBodyMode() == BodySendMode.FULL_DUPLEX_STREAMED,
        where + "response_body_mode is " + mode.getResponseBodyMode() + " (FULL_DUPLEX_STREAMED)");
    check(
        mode.getRequestTrailerMode() == HeaderSendMode.SEND,
        where + "request_trailer_mode must be SEND with FULL_DUPLEX_STREAMED");
    check(
        mode.getResponseTrailerMode() == HeaderSendMode.SEND,
        where + "response_trailer_mode must be SEND with FULL_DUPLEX_STREAMED");
    check(
        ext.getMetadataOptions().getReceivingNamespaces().getUntypedList().contains("envoy.lb"),
        where + "metadata_options.receiving_namespaces.untyped must contain envoy.lb");
    check(!ext.getAllowModeOverride(), where + "allow_mode_override must be false");
    check(ext.hasMessageTimeout(), where + "message_timeout must be set explicitly");
    check(!ext.getObservabilityMode(), where + "observability_mode ignores the picker's decision");
    check(
        !ext.getDisableImmediateResponse(), where + "disable_immediate_response drops 400/429/503");
    check(
        !ext.getDisableClearRouteCache()
            && ext.getRouteCacheAction() != ExternalProcessor.RouteCacheAction.RETAIN,
        where + "must honour clear_route_cache (the route depends on the picked header)");
    check(ext.getGrpcService().hasEnvoyGrpc(), where + "grpc_service.envoy_grpc expected");
    check(
        isUnlimitedOrLong(ext.getGrpcService().getTimeout()),
        where + "grpc_service.timeout would end long generations: leave unset, 0 or >= 1 h");
    assertPickerCluster(cluster(bootstrap, ext.getGrpcService().getEnvoyGrpc().getClusterName()));
  }

  /** HTTP/2 + TLS, least-request over replicas, gRPC health checks, raised circuit breakers. */
  public static void assertPickerCluster(Cluster cluster) {
    String where = "cluster " + cluster.getName() + " (picker): ";
    check(
        cluster.getType() == Cluster.DiscoveryType.STRICT_DNS
            || cluster.getType() == Cluster.DiscoveryType.EDS,
        where + "type " + cluster.getType() + " (STRICT_DNS to a headless Service, or EDS)");
    check(
        cluster.getLbPolicy() == Cluster.LbPolicy.LEAST_REQUEST,
        where + "lb_policy " + cluster.getLbPolicy() + " (LEAST_REQUEST)");
    Any options =
        cluster
            .getTypedExtensionProtocolOptionsMap()
            .get("envoy.extensions.upstreams.http.v3.HttpProtocolOptions");
    check(options != null, where + "no HttpProtocolOptions (gRPC needs HTTP/2)");
    HttpProtocolOptions http = unpack(options, HttpProtocolOptions.class);
    check(
        http.getExplicitHttpConfig().hasHttp2ProtocolOptions(),
        where + "explicit_http_config.http2_protocol_options required (gRPC needs HTTP/2)");
    Http2ProtocolOptions h2 = http.getExplicitHttpConfig().getHttp2ProtocolOptions();
    if (h2.hasConnectionKeepalive()) {
      check(
          h2.getConnectionKeepalive().getInterval().getSeconds() >= PICKER_PERMIT_KEEPALIVE_SECONDS,
          where
              + "keepalive interval "
              + show(h2.getConnectionKeepalive().getInterval())
              + " is below the picker's permitKeepAliveTime ("
              + PICKER_PERMIT_KEEPALIVE_SECONDS
              + " s): it would answer with GOAWAY");
      check(h2.getConnectionKeepalive().hasTimeout(), where + "keepalive timeout must be set");
    } else {
      throw new AssertionError(where + "http2 connection_keepalive must be set");
    }
    if (h2.hasMaxConcurrentStreams()) {
      check(
          h2.getMaxConcurrentStreams().getValue() >= MIN_CIRCUIT_BREAKER,
          where + "max_concurrent_streams " + h2.getMaxConcurrentStreams().getValue() + " < 10000");
    }
    check(
        cluster.getTransportSocket().getTypedConfig().is(UpstreamTlsContext.class),
        where + "no UpstreamTlsContext (the picker speaks TLS)");
    UpstreamTlsContext tls =
        unpack(cluster.getTransportSocket().getTypedConfig(), UpstreamTlsContext.class);
    check(
        !tls.getSni().isEmpty() || tls.getAutoHostSni(), where + "UpstreamTlsContext without sni");
    boolean grpcHealth =
        cluster.getHealthChecksList().stream()
            .filter(HealthCheck::hasGrpcHealthCheck)
            .anyMatch(h -> h.getGrpcHealthCheck().getServiceName().equals(EXT_PROC_HEALTH_SERVICE));
    check(grpcHealth, where + "no gRPC health check on service " + EXT_PROC_HEALTH_SERVICE);
    assertCircuitBreakers(where, cluster.getCircuitBreakers(), true);
  }

  /**
   * Routing: with the destination header the request reaches an ORIGINAL_DST cluster keyed on that
   * header; without it, a fallback cluster (round-robin) rather than a 503. Route timeouts fit long
   * generations.
   */
  public static void assertRoutes(
      Bootstrap bootstrap, Listener listener, HttpConnectionManager hcm) {
    String where = "listener " + listener.getName() + ": ";
    check(hcm.hasRouteConfig(), where + "route_config must be inline (static bootstrap)");
    List<VirtualHost> hosts = hcm.getRouteConfig().getVirtualHostsList();
    Optional<VirtualHost> catchAll =
        hosts.stream().filter(v -> v.getDomainsList().contains("*")).findFirst();
    check(catchAll.isPresent(), where + "no virtual host with domains [\"*\"]");
    for (VirtualHost host : hosts) {
      for (Route route : host.getRoutesList()) {
        if (!route.hasRoute()) {
          continue;
        }
        String r = where + "route '" + route.getName() + "' ";
        check(
            route.getRoute().hasTimeout() && isUnlimitedOrLong(route.getRoute().getTimeout()),
            r
                + "timeout must be set to 0 (none) or >= 1 h (the default 15 s cuts generations),"
                + " got "
                + show(route.getRoute().getTimeout()));
        if (route.getRoute().getTimeout().getSeconds() == 0) {
          check(
              (route.getRoute().hasIdleTimeout()
                      && route.getRoute().getIdleTimeout().getSeconds() > 0)
                  || hcm.hasStreamIdleTimeout(),
              r + "needs an idle timeout when the route timeout is 0");
        }
      }
    }
    VirtualHost host = catchAll.get();
    for (String path : InferencePaths.DEFAULT_ROUTED) {
      Route picked = firstMatch(host, "POST", path, true);
      Route fallback = firstMatch(host, "POST", path, false);
      check(
          picked != null && picked.hasRoute(),
          where + "no route matches POST " + path + " carrying " + DESTINATION_HEADER);
      check(
          fallback != null && fallback.hasRoute(),
          where + "no fallback route for POST " + path + " without " + DESTINATION_HEADER);
      Cluster pickedCluster = cluster(bootstrap, picked.getRoute().getCluster());
      assertOriginalDst(pickedCluster);
      check(
          upstreamProtocol(pickedCluster).hasHttpProtocolOptions(),
          where + "cluster " + pickedCluster.getName() + " must speak HTTP/1.1 to model servers");
      Route h2c = firstMatch(host, "POST", path, true, H2C);
      check(
          h2c != null && h2c.hasRoute(),
          where
              + "no route matches POST "
              + path
              + " of an h2c pool ("
              + APP_PROTOCOL_HEADER
              + ")");
      Cluster h2cCluster = cluster(bootstrap, h2c.getRoute().getCluster());
      assertOriginalDst(h2cCluster);
      check(
          upstreamProtocol(h2cCluster).hasHttp2ProtocolOptions()
              && !h2cCluster.hasTransportSocket(),
          where
              + "cluster "
              + h2cCluster.getName()
              + " (route "
              + h2c.getName()
              + ") must speak HTTP/2 cleartext (explicit http2_protocol_options, no TLS)");
      check(
          h2c.getRequestHeadersToRemoveList().contains(APP_PROTOCOL_HEADER),
          where + "route " + h2c.getName() + " must not forward " + APP_PROTOCOL_HEADER);
      Cluster fallbackCluster = cluster(bootstrap, fallback.getRoute().getCluster());
      String f = "cluster " + fallbackCluster.getName() + " (fallback): ";
      check(
          fallbackCluster.getType() != Cluster.DiscoveryType.ORIGINAL_DST,
          f + "ORIGINAL_DST has nowhere to send a request without " + DESTINATION_HEADER);
      check(
          fallbackCluster.getLbPolicy() == Cluster.LbPolicy.ROUND_ROBIN,
          f + "lb_policy " + fallbackCluster.getLbPolicy() + " (ROUND_ROBIN)");
    }
    assertOnlyInferenceIsRouted(where, hcm, host);
  }

  /**
   * Paths are normalised as the picker expects, escaped slashes refused, and every request in
   * {@link #NOT_ROUTED} (normalised as Envoy does) gets a 404 direct response with an OpenAI error,
   * without the picker, with or without a (forged) destination header. The model listing never
   * takes the picked-pod route.
   */
  public static void assertOnlyInferenceIsRouted(
      String where, HttpConnectionManager hcm, VirtualHost host) {
    check(
        hcm.hasNormalizePath() && hcm.getNormalizePath().getValue(),
        where + "normalize_path must be true (routes match the normalised path)");
    check(hcm.getMergeSlashes(), where + "merge_slashes must be true");
    var action = hcm.getPathWithEscapedSlashesAction();
    check(
        action == HttpConnectionManager.PathWithEscapedSlashesAction.REJECT_REQUEST,
        where
            + "path_with_escaped_slashes_action is "
            + action
            + " (REJECT_REQUEST: what the picker and local-gateway expect)");
    for (List<String> request : NOT_ROUTED) {
      String method = request.get(0);
      if (!(PathNormalizer.normalize(request.get(1)) instanceof NormalizedPath.Valid v)) {
        continue; // refused with 400 before routing
      }
      for (boolean destination : List.of(false, true)) {
        Route route = firstMatch(host, method, v.path(), destination);
        String r = where + method + " " + request.get(1) + " (normalised " + v.path() + ") ";
        check(route != null, r + "matches no route (expected a 404 direct response)");
        check(
            route.hasDirectResponse() && route.getDirectResponse().getStatus() == 404,
            r + "takes route '" + route.getName() + "' (expected a 404 direct response)");
        assertOpenAiNotFound(r, route);
        Any perRoute = route.getTypedPerFilterConfigMap().get(EXT_PROC_FILTER);
        check(
            perRoute != null
                && perRoute.is(ExtProcPerRoute.class)
                && unpack(perRoute, ExtProcPerRoute.class).getDisabled(),
            r + "route '" + route.getName() + "' must disable " + EXT_PROC_FILTER);
      }
    }
    for (String method : List.of("GET", "HEAD")) {
      for (String path : List.of(InferencePaths.MODELS, InferencePaths.MODELS + "/llama")) {
        Route route = firstMatch(host, method, path, false);
        check(
            route != null && !route.hasDirectResponse(),
            where + method + " " + path + " must reach the picker (it answers the listing)");
      }
    }
  }

  private static void assertOpenAiNotFound(String where, Route route) {
    String body = route.getDirectResponse().getBody().getInlineString();
    try {
      JsonNode error = JSON.readTree(body).path("error");
      check(
          error.path("type").asText().equals("not_found_error")
              && error.path("code").asText().equals("unknown_path")
              && !error.path("message").asText().isBlank(),
          where + "404 body is not an OpenAI not_found_error/unknown_path: " + body);
    } catch (IOException e) {
      throw new AssertionError(where + "404 body is not JSON: " + body, e);
    }
    boolean json =
        route.getResponseHeadersToAddList().stream()
            .anyMatch(
                h ->
                    h.getHeader().getKey().equalsIgnoreCase("content-type")
                        && h.getHeader().getValue().equals("application/json"));
    check(json, where + "404 must set content-type: application/json");
  }

  /** ORIGINAL_DST on the destination header: CLUSTER_PROVIDED, fast connect, raised breakers. */
  public static void assertOriginalDst(Cluster cluster) {
    String where = "cluster " + cluster.getName() + " (picked pod): ";
    check(
        cluster.getType() == Cluster.DiscoveryType.ORIGINAL_DST,
        where + "type " + cluster.getType() + " (ORIGINAL_DST)");
    check(
        cluster.getLbPolicy() == Cluster.LbPolicy.CLUSTER_PROVIDED,
        where + "ORIGINAL_DST requires lb_policy CLUSTER_PROVIDED, got " + cluster.getLbPolicy());
    check(
        cluster.getOriginalDstLbConfig().getUseHttpHeader(),
        where + "original_dst_lb_config.use_http_header must be true");
    check(
        cluster.getOriginalDstLbConfig().getHttpHeaderName().equals(DESTINATION_HEADER),
        where
            + "original_dst_lb_config.http_header_name is '"
            + cluster.getOriginalDstLbConfig().getHttpHeaderName()
            + "' (expected "
            + DESTINATION_HEADER
            + ")");
    check(
        cluster.hasConnectTimeout()
            && cluster.getConnectTimeout().getSeconds() <= MAX_MODEL_CONNECT_TIMEOUT_SECONDS,
        where + "connect_timeout must be <= 5 s (a dead pod fails fast)");
    assertCircuitBreakers(where, cluster.getCircuitBreakers(), false);
  }

  /** A listener other than the gateway answers health probes locally. */
  public static void assertHealthListener(Bootstrap bootstrap) {
    List<Listener> gateways = gatewayListeners(bootstrap);
    boolean found = false;
    for (Listener listener : bootstrap.getStaticResources().getListenersList()) {
      if (gateways.contains(listener)) {
        continue;
      }
      for (HttpConnectionManager hcm : connectionManagers(listener)) {
        boolean healthFilter =
            hcm.getHttpFiltersList().stream()
                .filter(
                    f ->
                        f.getTypedConfig()
                            .is(
                                io.envoyproxy.envoy.extensions.filters.http.health_check.v3
                                    .HealthCheck.class))
                .map(
                    f ->
                        unpack(
                            f.getTypedConfig(),
                            io.envoyproxy.envoy.extensions.filters.http.health_check.v3.HealthCheck
                                .class))
                .anyMatch(h -> h.hasPassThroughMode() && !h.getPassThroughMode().getValue());
        boolean directOk =
            hcm.getRouteConfig().getVirtualHostsList().stream()
                .flatMap(v -> v.getRoutesList().stream())
                .anyMatch(r -> r.hasDirectResponse() && r.getDirectResponse().getStatus() == 200);
        found |= healthFilter || directOk;
      }
    }
    check(
        found,
        "no health listener (health_check filter without pass-through, or a 200 direct_response)");
  }

  /**
   * {@code failure_mode_allow} must be written out in every ext_proc filter config: proto3 loses
   * the difference between "false" and "absent", so this reads the source tree.
   */
  public static void assertExplicitFailureMode(JsonNode root) {
    List<JsonNode> configs = new ArrayList<>();
    collectTypedConfigs(root, ExternalProcessor.getDescriptor().getFullName(), configs);
    check(!configs.isEmpty(), "no ext_proc typed_config found");
    for (JsonNode config : configs) {
      check(
          config.has("failure_mode_allow") && config.get("failure_mode_allow").isBoolean(),
          "ext_proc: failure_mode_allow must be set explicitly (true = FailOpen via the fallback"
              + " route, false = FailClose)");
    }
  }

  /** No field or enum value marked deprecated anywhere, typed configs included. */
  public static void assertNoDeprecatedFields(Message root) {
    List<String> found = new ArrayList<>();
    walk(
        root,
        "",
        (path, message) -> {
          for (Map.Entry<FieldDescriptor, Object> e : message.getAllFields().entrySet()) {
            FieldDescriptor field = e.getKey();
            if (field.getOptions().getDeprecated()) {
              found.add(path + "/" + field.getName());
            }
            if (field.getJavaType() == FieldDescriptor.JavaType.ENUM) {
              List<?> values = field.isRepeated() ? (List<?>) e.getValue() : List.of(e.getValue());
              for (Object v : values) {
                EnumValueDescriptor value = (EnumValueDescriptor) v;
                if (value.getOptions().getDeprecated()) {
                  found.add(path + "/" + field.getName() + "=" + value.getName());
                }
              }
            }
          }
        });
    check(found.isEmpty(), "deprecated fields in use (Envoy warns or rejects them): " + found);
  }

  /**
   * Every SDS secret loaded from a file exists, parses, holds exactly one {@code Secret} of the
   * referenced name, and watches the directories its files live in. {@code files} maps a path as
   * Envoy sees it (e.g. {@code /etc/envoy/sds/gateway-tls.yaml}) to the file's text.
   */
  public static void assertSdsFiles(Bootstrap bootstrap, Function<String, String> files) {
    List<String> violations = new ArrayList<>();
    List<SdsSecretConfig> configs = sdsSecretConfigs(bootstrap);
    if (configs.isEmpty()) {
      violations.add("no SDS secret configs");
    }
    for (SdsSecretConfig config : configs) {
      collect(violations, () -> assertSdsFile(config, files));
    }
    throwIfAny(violations);
  }

  private static void assertSdsFile(SdsSecretConfig config, Function<String, String> files) {
    String where = "SDS secret '" + config.getName() + "': ";
    check(config.getSdsConfig().hasPathConfigSource(), where + "not file-based");
    var source = config.getSdsConfig().getPathConfigSource();
    check(
        config.getSdsConfig().getResourceApiVersion() == ApiVersion.V3,
        where + "sds_config.resource_api_version must be V3");
    check(
        source.hasWatchedDirectory()
            && Path.of(source.getPath())
                .getParent()
                .toString()
                .equals(source.getWatchedDirectory().getPath()),
        where
            + "path_config_source must watch the directory holding "
            + source.getPath()
            + " (Kubernetes swaps ConfigMap files by symlink moves)");
    String text = files.apply(source.getPath());
    check(text != null, where + "file " + source.getPath() + " not found");
    DiscoveryResponse response = parseSds(text);
    check(
        response.getResourcesCount() == 1,
        where + source.getPath() + " must hold exactly one resource (Envoy rejects more)");
    Any resource = response.getResources(0);
    check(resource.is(Secret.class), where + "resource is " + resource.getTypeUrl());
    Secret secret = unpack(resource, Secret.class);
    check(
        secret.getName().equals(config.getName()),
        where + "file holds secret '" + secret.getName() + "'");
    List<String> filenames = new ArrayList<>();
    String watched;
    if (secret.hasTlsCertificate()) {
      var cert = secret.getTlsCertificate();
      check(
          cert.getCertificateChain().hasFilename() && cert.getPrivateKey().hasFilename(),
          where + "certificate_chain and private_key must be files (of the mounted Secret)");
      filenames.add(cert.getCertificateChain().getFilename());
      filenames.add(cert.getPrivateKey().getFilename());
      watched = cert.getWatchedDirectory().getPath();
    } else if (secret.hasValidationContext()) {
      var ca = secret.getValidationContext();
      check(ca.getTrustedCa().hasFilename(), where + "trusted_ca must be a file");
      filenames.add(ca.getTrustedCa().getFilename());
      watched = ca.getWatchedDirectory().getPath();
    } else {
      throw new AssertionError(where + "neither tls_certificate nor validation_context");
    }
    for (String file : filenames) {
      check(
          Path.of(file).getParent().toString().equals(watched),
          where + "watched_directory '" + watched + "' does not hold " + file);
    }
  }

  // ----------------------------------------------------------------------------------------------
  // Accessors (also handy in tests).
  // ----------------------------------------------------------------------------------------------

  /** The explicit HTTP protocol a cluster speaks upstream (empty when it sets none). */
  public static HttpProtocolOptions.ExplicitHttpConfig upstreamProtocol(Cluster cluster) {
    Any options =
        cluster
            .getTypedExtensionProtocolOptionsMap()
            .get("envoy.extensions.upstreams.http.v3.HttpProtocolOptions");
    return options == null
        ? HttpProtocolOptions.ExplicitHttpConfig.getDefaultInstance()
        : unpack(options, HttpProtocolOptions.class).getExplicitHttpConfig();
  }

  /** Listeners whose HTTP connection manager runs the ext_proc filter. */
  public static List<Listener> gatewayListeners(Bootstrap bootstrap) {
    return bootstrap.getStaticResources().getListenersList().stream()
        .filter(
            l ->
                connectionManagers(l).stream()
                    .anyMatch(
                        h ->
                            h.getHttpFiltersList().stream()
                                .anyMatch(f -> f.getName().equals(EXT_PROC_FILTER))))
        .toList();
  }

  /** The headers the first HTTP filter (a header_mutation) removes from requests, in order. */
  public static List<String> removedByFirstFilter(HttpConnectionManager hcm) {
    return unpack(hcm.getHttpFilters(0).getTypedConfig(), HeaderMutation.class)
        .getMutations()
        .getRequestMutationsList()
        .stream()
        .map(m -> m.getRemove())
        .toList();
  }

  /** The headers the first early header mutation removes, in order. */
  public static List<String> removedEarly(HttpConnectionManager hcm) {
    return unpack(
            hcm.getEarlyHeaderMutationExtensions(0).getTypedConfig(),
            io.envoyproxy.envoy.extensions.http.early_header_mutation.header_mutation.v3
                .HeaderMutation.class)
        .getMutationsList()
        .stream()
        .map(m -> m.getRemove())
        .toList();
  }

  /** The HTTP connection managers of every filter chain of {@code listener}. */
  public static List<HttpConnectionManager> connectionManagers(Listener listener) {
    return listener.getFilterChainsList().stream()
        .flatMap(c -> c.getFiltersList().stream())
        .map(Filter::getTypedConfig)
        .filter(a -> a.is(HttpConnectionManager.class))
        .map(a -> unpack(a, HttpConnectionManager.class))
        .toList();
  }

  /** The (single) ext_proc filter config of {@code hcm}. */
  public static ExternalProcessor extProc(HttpConnectionManager hcm) {
    HttpFilter filter =
        hcm.getHttpFiltersList().stream()
            .filter(f -> f.getName().equals(EXT_PROC_FILTER))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no " + EXT_PROC_FILTER));
    check(
        filter.getTypedConfig().is(ExternalProcessor.class),
        EXT_PROC_FILTER + " has typed_config " + filter.getTypedConfig().getTypeUrl());
    return unpack(filter.getTypedConfig(), ExternalProcessor.class);
  }

  /** The failure mode of the (first) gateway listener's ext_proc filter. */
  public static boolean failureModeAllow(Bootstrap bootstrap) {
    List<Listener> gateways = gatewayListeners(bootstrap);
    check(!gateways.isEmpty(), "no gateway listener");
    return extProc(connectionManagers(gateways.get(0)).get(0)).getFailureModeAllow();
  }

  /** The address of {@code cluster}'s first endpoint. */
  public static SocketAddress firstAddress(Cluster cluster) {
    return cluster
        .getLoadAssignment()
        .getEndpoints(0)
        .getLbEndpoints(0)
        .getEndpoint()
        .getAddress()
        .getSocketAddress();
  }

  /** The cluster called {@code name}; fails when absent. */
  public static Cluster cluster(Bootstrap bootstrap, String name) {
    return bootstrap.getStaticResources().getClustersList().stream()
        .filter(c -> c.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no cluster named '" + name + "'"));
  }

  /** Every SdsSecretConfig in the bootstrap, typed configs included. */
  public static List<SdsSecretConfig> sdsSecretConfigs(Bootstrap bootstrap) {
    List<SdsSecretConfig> out = new ArrayList<>();
    walk(
        bootstrap,
        "",
        (path, message) -> {
          if (message.getDescriptorForType().equals(SdsSecretConfig.getDescriptor())) {
            try {
              out.add(SdsSecretConfig.parseFrom(message.toByteString()));
            } catch (InvalidProtocolBufferException e) {
              throw new IllegalStateException(e);
            }
          }
        });
    return out;
  }

  /**
   * The first route of {@code host} that a request matches: {@code method} on the (normalised)
   * {@code path}, with or without the destination header and no other special headers; null when
   * none does. Understands the matchers the shipped config uses: prefix, path, safe_regex (whole
   * path), {@code :method} exact or regex, and presence of the destination header.
   */
  public static Route firstMatch(
      VirtualHost host, String method, String path, boolean withDestination) {
    return firstMatch(host, method, path, withDestination, null);
  }

  /**
   * As {@link #firstMatch(VirtualHost, String, String, boolean)}, with {@value
   * #APP_PROTOCOL_HEADER} set to {@code appProtocol} (null: absent); understands its exact and
   * presence matchers.
   */
  public static Route firstMatch(
      VirtualHost host, String method, String path, boolean withDestination, String appProtocol) {
    for (Route route : host.getRoutesList()) {
      RouteMatch match = route.getMatch();
      if (!pathMatches(match, path)
          || match.getQueryParametersCount() > 0
          || match.hasRuntimeFraction()
          || match.hasGrpc()) {
        continue;
      }
      boolean headersMatch = true;
      for (HeaderMatcher header : match.getHeadersList()) {
        headersMatch &= headerMatches(header, method, withDestination, appProtocol);
      }
      if (headersMatch) {
        return route;
      }
    }
    return null;
  }

  private static boolean pathMatches(RouteMatch match, String path) {
    return switch (match.getPathSpecifierCase()) {
      case PREFIX -> path.startsWith(match.getPrefix());
      case PATH -> path.equals(match.getPath());
      case SAFE_REGEX -> path.matches(match.getSafeRegex().getRegex());
      default -> false;
    };
  }

  private static boolean headerMatches(
      HeaderMatcher matcher, String method, boolean destination, String appProtocol) {
    boolean result;
    if (matcher.getName().equals(":method")) {
      result =
          switch (matcher.getHeaderMatchSpecifierCase()) {
            case STRING_MATCH ->
                matcher.getStringMatch().hasSafeRegex()
                    ? method.matches(matcher.getStringMatch().getSafeRegex().getRegex())
                    : method.equals(matcher.getStringMatch().getExact());
            case EXACT_MATCH -> method.equals(matcher.getExactMatch());
            default -> false;
          };
    } else if (matcher.getName().equalsIgnoreCase(DESTINATION_HEADER)) {
      result =
          switch (matcher.getHeaderMatchSpecifierCase()) {
            case PRESENT_MATCH -> matcher.getPresentMatch() == destination;
            case HEADERMATCHSPECIFIER_NOT_SET -> destination; // Envoy's default: presence
            default -> false;
          };
    } else if (matcher.getName().equalsIgnoreCase(APP_PROTOCOL_HEADER)) {
      result =
          switch (matcher.getHeaderMatchSpecifierCase()) {
            case PRESENT_MATCH -> matcher.getPresentMatch() == (appProtocol != null);
            case STRING_MATCH ->
                appProtocol != null
                    && !matcher.getStringMatch().hasSafeRegex()
                    && appProtocol.equals(matcher.getStringMatch().getExact());
            default -> false;
          };
    } else {
      return false;
    }
    return matcher.getInvertMatch() != result;
  }

  private static void assertCircuitBreakers(
      String where, CircuitBreakers breakers, boolean picker) {
    var threshold =
        breakers.getThresholdsList().stream()
            .filter(t -> t.getPriority() == RoutingPriority.DEFAULT)
            .findFirst();
    check(threshold.isPresent(), where + "circuit_breakers for priority DEFAULT must be raised");
    var t = threshold.get();
    check(
        t.getMaxRequests().getValue() >= MIN_CIRCUIT_BREAKER,
        where + "circuit_breakers max_requests must be >= 10000 (default 1024)");
    check(
        t.getMaxPendingRequests().getValue() >= MIN_CIRCUIT_BREAKER,
        where + "circuit_breakers max_pending_requests must be >= 10000 (default 1024)");
    if (!picker) {
      check(
          t.getMaxConnections().getValue() >= MIN_CIRCUIT_BREAKER,
          where + "circuit_breakers max_connections must be >= 10000 (HTTP/1.1: one per request)");
    }
  }

  private static Set<String> earlyRemovedHeaders(HttpConnectionManager hcm) {
    Set<String> removed = new java.util.HashSet<>();
    for (var extension : hcm.getEarlyHeaderMutationExtensionsList()) {
      Any config = extension.getTypedConfig();
      if (config.is(
          io.envoyproxy.envoy.extensions.http.early_header_mutation.header_mutation.v3
              .HeaderMutation.class)) {
        unpack(
                config,
                io.envoyproxy.envoy.extensions.http.early_header_mutation.header_mutation.v3
                    .HeaderMutation.class)
            .getMutationsList()
            .forEach(m -> removed.add(m.getRemove().toLowerCase(java.util.Locale.ROOT)));
      }
    }
    return removed;
  }

  // ----------------------------------------------------------------------------------------------
  // Plumbing.
  // ----------------------------------------------------------------------------------------------

  private static void merge(String yaml, Message.Builder builder) {
    String json;
    try {
      json = JSON.writeValueAsString(tree(yaml));
    } catch (IOException e) {
      throw new IllegalArgumentException("YAML → JSON failed: " + e.getMessage(), e);
    }
    try {
      JsonFormat.parser().usingTypeRegistry(REGISTRY).merge(json, builder);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "not a valid " + builder.getDescriptorForType().getFullName() + ": " + e.getMessage(), e);
    }
  }

  /** The YAML as a Jackson tree; duplicate keys are an error. */
  public static JsonNode tree(String yaml) {
    try {
      JsonNode node = YAML.readTree(yaml);
      if (node == null || !node.isObject()) {
        throw new IllegalArgumentException("YAML: expected a mapping at the top level");
      }
      return node;
    } catch (IOException e) {
      throw new IllegalArgumentException("YAML: " + e.getMessage(), e);
    }
  }

  private static void collectTypedConfigs(JsonNode node, String typeName, List<JsonNode> out) {
    if (node.isObject()) {
      JsonNode type = node.get("@type");
      if (type != null && type.asText().endsWith("/" + typeName)) {
        out.add(node);
      }
      node.elements().forEachRemaining(child -> collectTypedConfigs(child, typeName, out));
    } else if (node.isArray()) {
      node.elements().forEachRemaining(child -> collectTypedConfigs(child, typeName, out));
    }
  }

  /** Visits every message under {@code root}, unpacking {@code Any}s through the registry. */
  private static void walk(Message message, String path, BiConsumer<String, Message> visitor) {
    if (message.getDescriptorForType().equals(Any.getDescriptor())) {
      Message unpacked = unpackDynamic(message);
      if (unpacked != null) {
        walk(unpacked, path + "<" + unpacked.getDescriptorForType().getName() + ">", visitor);
      }
      return;
    }
    visitor.accept(path, message);
    for (Map.Entry<FieldDescriptor, Object> e : message.getAllFields().entrySet()) {
      FieldDescriptor field = e.getKey();
      if (field.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
        continue;
      }
      String child = path + "/" + field.getName();
      if (field.isRepeated()) {
        List<?> items = (List<?>) e.getValue();
        for (int i = 0; i < items.size(); i++) {
          walk((Message) items.get(i), child + "[" + i + "]", visitor);
        }
      } else {
        walk((Message) e.getValue(), child, visitor);
      }
    }
  }

  private static Message unpackDynamic(Message anyMessage) {
    try {
      Any any = Any.parseFrom(anyMessage.toByteString());
      String typeName = any.getTypeUrl().substring(any.getTypeUrl().lastIndexOf('/') + 1);
      Descriptor descriptor = REGISTRY.find(typeName);
      return descriptor == null ? null : DynamicMessage.parseFrom(descriptor, any.getValue());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  public static <T extends Message> T unpack(Any any, Class<T> type) {
    try {
      return any.unpack(type);
    } catch (InvalidProtocolBufferException e) {
      throw new AssertionError("cannot unpack " + any.getTypeUrl() + " as " + type.getName(), e);
    }
  }

  private static boolean isUnlimitedOrLong(Duration d) {
    return (d.getSeconds() == 0 && d.getNanos() == 0)
        || d.getSeconds() >= MIN_FINITE_ROUTE_TIMEOUT_SECONDS;
  }

  private static String show(Duration d) {
    return d.getNanos() == 0
        ? d.getSeconds() + "s"
        : d.getSeconds() + "." + String.format("%09d", d.getNanos()).replaceAll("0+$", "") + "s";
  }

  static void check(boolean condition, String message) {
    if (!condition) {
      throw new AssertionError(message);
    }
  }

  private static void collect(List<String> violations, Runnable rule) {
    try {
      rule.run();
    } catch (AssertionError | IllegalArgumentException e) {
      violations.add(e.getMessage());
    }
  }

  private static void throwIfAny(List<String> violations) {
    if (!violations.isEmpty()) {
      throw new AssertionError(
          "Envoy config violates "
              + violations.size()
              + " rule(s):\n  - "
              + String.join("\n  - ", violations));
    }
  }
}
