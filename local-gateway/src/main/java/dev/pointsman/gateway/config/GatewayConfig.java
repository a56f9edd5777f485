package dev.pointsman.gateway.config;

import dev.pointsman.config.Yaml;
import dev.pointsman.inference.request.InferencePaths;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The local gateway's configuration file. Every section is optional; the defaults match the shipped
 * Envoy config (fail-closed, 2 s upstream connect timeout, no route timeout, 10 min stream idle
 * timeout, 10 s request headers timeout, 1 h idle connection timeout, 64 KiB headers, 1024
 * concurrent HTTP/2 streams). Validation messages name the path of the bad value. Example:
 *
 * <pre>
 * listen: {port: 8443, tls: self-signed}
 * picker: {address: "127.0.0.1:9002", tls: tls, caFile: picker.pem}
 * failureModeAllow: false
 * fallbackEndpoints: ["127.0.0.1:8001"]
 * timeouts: {upstreamConnectMillis: 2000, streamIdleMillis: 600000, requestHeadersMillis: 10000}
 * limits: {maxHeaderBytes: 65536, maxConcurrentStreams: 1024}
 * </pre>
 *
 * @param listen the client-facing listener
 * @param picker the ext_proc server
 * @param failureModeAllow Envoy's {@code failure_mode_allow}: on a picker error, continue the
 *     request unprocessed (true) or answer 500 (false, the default)
 * @param fallbackEndpoints the fallback route's endpoints (round-robin), taken by a request that
 *     reaches routing without a destination header; empty: such a request gets 503
 * @param timeouts timeouts
 * @param limits buffer and protocol bounds
 * @param admin the admin listener, or null for none
 * @param routedPaths the {@code POST} paths routed to a model server, as the Envoy config's {@code
 *     picked} route matches them (default: {@code /v1/chat/completions}, {@code /v1/completions},
 *     {@code /v1/embeddings}, {@code /v1/responses}); keep it equal to the picker's {@code
 *     extProc.routedPaths}. Every other request but {@code GET}/{@code HEAD /v1/models} gets 404
 *     here, without asking the picker.
 */
public record GatewayConfig(
    ListenSection listen,
    PickerSection picker,
    Boolean failureModeAllow,
    List<String> fallbackEndpoints,
    TimeoutSection timeouts,
    LimitSection limits,
    AdminSection admin,
    List<String> routedPaths) {

  public GatewayConfig {
    listen = listen == null ? ListenSection.DEFAULTS : listen;
    picker = picker == null ? PickerSection.DEFAULTS : picker;
    failureModeAllow = failureModeAllow != null && failureModeAllow;
    fallbackEndpoints = fallbackEndpoints == null ? List.of() : List.copyOf(fallbackEndpoints);
    timeouts = timeouts == null ? TimeoutSection.DEFAULTS : timeouts;
    limits = limits == null ? LimitSection.DEFAULTS : limits;
    routedPaths = InferencePaths.of(routedPaths).routed();
    for (int i = 0; i < fallbackEndpoints.size(); i++) {
      try {
        HostPort.parse(fallbackEndpoints.get(i));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("fallbackEndpoints[" + i + "]: " + e.getMessage(), e);
      }
    }
  }

  /** A configuration routing the default inference paths. */
  public GatewayConfig(
      ListenSection listen,
      PickerSection picker,
      Boolean failureModeAllow,
      List<String> fallbackEndpoints,
      TimeoutSection timeouts,
      LimitSection limits,
      AdminSection admin) {
    this(listen, picker, failureModeAllow, fallbackEndpoints, timeouts, limits, admin, null);
  }

  /** Defaults everywhere but the listener and the picker. */
  public static GatewayConfig of(ListenSection listen, PickerSection picker) {
    return new GatewayConfig(listen, picker, null, null, null, null, null, null);
  }

  /** Reads and validates a config file; messages start with the file name. */
  public static GatewayConfig load(Path file) {
    return Yaml.readFile(file, GatewayConfig.class);
  }

  /** Reads and validates YAML text. */
  public static GatewayConfig parse(String yaml) {
    return Yaml.read(yaml, GatewayConfig.class, null);
  }

  /** The allow-list of routed paths. */
  public InferencePaths paths() {
    return InferencePaths.of(routedPaths);
  }

  public List<HostPort> fallback() {
    List<HostPort> out = new ArrayList<>();
    fallbackEndpoints.forEach(e -> out.add(HostPort.parse(e)));
    return out;
  }

  public GatewayConfig withFailureModeAllow(boolean allow) {
    return new GatewayConfig(
        listen, picker, allow, fallbackEndpoints, timeouts, limits, admin, routedPaths);
  }

  public GatewayConfig withFallback(List<String> endpoints) {
    return new GatewayConfig(
        listen, picker, failureModeAllow, endpoints, timeouts, limits, admin, routedPaths);
  }

  public GatewayConfig withListen(ListenSection newListen) {
    return new GatewayConfig(
        newListen,
        picker,
        failureModeAllow,
        fallbackEndpoints,
        timeouts,
        limits,
        admin,
        routedPaths);
  }

  public GatewayConfig withPicker(PickerSection newPicker) {
    return new GatewayConfig(
        listen,
        newPicker,
        failureModeAllow,
        fallbackEndpoints,
        timeouts,
        limits,
        admin,
        routedPaths);
  }

  public GatewayConfig withTimeouts(TimeoutSection newTimeouts) {
    return new GatewayConfig(
        listen,
        picker,
        failureModeAllow,
        fallbackEndpoints,
        newTimeouts,
        limits,
        admin,
        routedPaths);
  }

  public GatewayConfig withRoutedPaths(List<String> paths) {
    return new GatewayConfig(
        listen, picker, failureModeAllow, fallbackEndpoints, timeouts, limits, admin, paths);
  }

  public GatewayConfig withLimits(LimitSection newLimits) {
    return new GatewayConfig(
        listen, picker, failureModeAllow, fallbackEndpoints, timeouts, newLimits, admin);
  }

  public GatewayConfig withAdmin(AdminSection newAdmin) {
    return new GatewayConfig(
        listen,
        picker,
        failureModeAllow,
        fallbackEndpoints,
        timeouts,
        limits,
        newAdmin,
        routedPaths);
  }
}
