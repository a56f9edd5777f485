package dev.pointsman.extproc;

import com.google.protobuf.Struct;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The protobufs a routing reply repeats from request to request, built once and reused: the
 * destination metadata per endpoint and the header options whose values are endpoints or model
 * names. Messages are immutable, so one instance serves every stream. Each cache is bounded: past
 * {@link #BOUND} entries (endpoints churn) it starts over.
 */
final class RoutingProtos {
  static final int BOUND = 4_096;

  private static final ConcurrentHashMap<String, Struct> METADATA = new ConcurrentHashMap<>();
  private static final ConcurrentHashMap<String, ConcurrentHashMap<String, HeaderValueOption>>
      HEADERS = new ConcurrentHashMap<>();

  private RoutingProtos() {}

  /** Whether a header's values repeat across requests (endpoints, models), so worth keeping. */
  static boolean repeats(String name) {
    return name.equals(Responses.DESTINATION) || name.equals("x-gateway-model-name");
  }

  /** The {@code envoy.lb} metadata naming {@code destination} alone. */
  static Struct metadata(String destination) {
    return cached(METADATA, destination, d -> Responses.destinationMetadata(d, null));
  }

  /**
   * The option setting header {@code name} (one of those that {@link #repeats}) to {@code value}.
   */
  static HeaderValueOption header(String name, String value) {
    ConcurrentHashMap<String, HeaderValueOption> byValue = HEADERS.get(name);
    if (byValue == null) {
      byValue = HEADERS.computeIfAbsent(name, n -> new ConcurrentHashMap<>());
    }
    return cached(byValue, value, v -> Responses.header(name, v));
  }

  private static <T> T cached(
      ConcurrentHashMap<String, T> cache, String key, Function<String, T> make) {
    T held = cache.get(key);
    if (held != null) {
      return held;
    }
    if (cache.size() >= BOUND) {
      cache.clear();
    }
    return cache.computeIfAbsent(key, make);
  }
}
