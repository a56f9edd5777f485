package dev.pointsman.gateway.proxy;

import dev.pointsman.gateway.config.HostPort;
import dev.pointsman.gateway.http.HeaderList;
import dev.pointsman.inference.error.OpenAiError;
import dev.pointsman.inference.request.InferencePaths;
import dev.pointsman.inference.request.NormalizedPath;
import dev.pointsman.inference.request.PathDecision;
import dev.pointsman.inference.request.PathNormalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The route table of the Envoy config. A request off the inference API takes the {@code
 * not-inference} route: a 404 of the gateway's own, before the picker is asked (ext_proc is
 * disabled on that route), and one whose path Envoy refuses gets 400 ({@link #refusal}). Otherwise
 * a request carrying {@code x-gateway-destination-endpoint} takes the ORIGINAL_DST route, whose
 * host is read from that header when the upstream connection is chosen (over HTTP/2 cleartext when
 * the picker also set {@code x-pointsman-app-protocol: kubernetes.io/h2c}, as Envoy's {@code
 * picked-h2c} route does); any other request takes the fallback route, round-robin over the default
 * endpoints, or gets 503 when there are none. Thread-safe (the round-robin counter is atomic).
 */
final class Router {
  static final String DESTINATION = "x-gateway-destination-endpoint";

  /** Set by the picker for a pool whose model servers speak h2c; never taken from clients. */
  static final String APP_PROTOCOL = "x-pointsman-app-protocol";

  static final String H2C = "kubernetes.io/h2c";

  /**
   * Set by the fleet tier: where to resend a request whose destination refused the connection
   * ({@code ip:port,ip:port}, in order); never taken from clients.
   */
  static final String FALLBACKS = "x-pointsman-fleet-fallbacks";

  private final List<HostPort> fallback;
  private final InferencePaths paths;
  private final AtomicInteger next = new AtomicInteger();

  Router(List<HostPort> fallback) {
    this(fallback, InferencePaths.DEFAULTS);
  }

  Router(List<HostPort> fallback, InferencePaths paths) {
    this.fallback = List.copyOf(fallback);
    this.paths = paths;
  }

  /**
   * The error for a request Envoy answers itself before routing to a model server: 400 for a path
   * its normalisation refuses, 404 for anything but the inference API and the model listing; null
   * for a request that goes on to the picker.
   *
   * @param method {@code :method}
   * @param path the request target as normalised ({@link PathNormalizer#normalize})
   */
  OpenAiError refusal(String method, NormalizedPath path) {
    return switch (path) {
      case NormalizedPath.Invalid i ->
          new OpenAiError(
              400, "invalid path: " + i.reason(), "invalid_request_error", "invalid_path");
      case NormalizedPath.Valid v ->
          paths.decide(method, v.path()) instanceof PathDecision.Refused r ? r.error() : null;
    };
  }

  /** The route matching {@code headers}: what Envoy caches until {@code clear_route_cache}. */
  Route match(HeaderList headers) {
    if (headers.contains(DESTINATION)) {
      return H2C.equals(headers.get(APP_PROTOCOL)) ? Route.ORIGINAL_DST_H2C : Route.ORIGINAL_DST;
    }
    return fallback.isEmpty() ? Route.NONE : Route.FALLBACK;
  }

  /** The upstream host for {@code route}, read at connection time as Envoy's load balancer does. */
  Target target(Route route, HeaderList headers) {
    return switch (route) {
      case ORIGINAL_DST, ORIGINAL_DST_H2C -> originalDestination(headers.get(DESTINATION));
      case FALLBACK ->
          new Target.Host(fallback.get(Math.floorMod(next.getAndIncrement(), fallback.size())));
      case NONE -> new Target.None("no route: no destination header and no fallback endpoints");
    };
  }

  /**
   * The hosts to resend the request to, in order, should {@code route}'s host refuse the
   * connection: the fleet tier's fallbacks on an ORIGINAL_DST route, none otherwise or when the
   * header is unreadable (as Envoy's aggregate cluster, a bad list leaves the request to its first
   * host alone).
   */
  List<HostPort> fallbacks(Route route, HeaderList headers) {
    String value = headers.get(FALLBACKS);
    if (route == Route.FALLBACK || route == Route.NONE || value == null || value.isBlank()) {
      return List.of();
    }
    List<HostPort> out = new ArrayList<>();
    try {
      for (String one : value.split(",")) {
        out.add(HostPort.parseIpLiteral(one.strip()));
      }
    } catch (IllegalArgumentException e) {
      return List.of();
    }
    return out;
  }

  private static Target originalDestination(String value) {
    if (value == null) {
      return new Target.None("no healthy upstream: the destination header was removed");
    }
    try {
      return new Target.Host(HostPort.parseIpLiteral(value.strip()));
    } catch (IllegalArgumentException e) {
      return new Target.None("no healthy upstream: " + DESTINATION + " " + e.getMessage());
    }
  }

  /** The cached route of a request. */
  enum Route {
    ORIGINAL_DST,
    /** {@code picked-h2c}: the picked pod, over HTTP/2 with prior knowledge. */
    ORIGINAL_DST_H2C,
    FALLBACK,
    NONE;

    /** Whether the model server is spoken to in HTTP/2 cleartext. */
    boolean h2c() {
      return this == ORIGINAL_DST_H2C;
    }
  }

  /** Where a request goes: a host, or nowhere (503). */
  sealed interface Target {
    record Host(HostPort address) implements Target {}

    record None(String why) implements Target {}
  }
}
