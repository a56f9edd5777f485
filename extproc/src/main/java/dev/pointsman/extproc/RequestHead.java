package dev.pointsman.extproc;

import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.core.v3.HeaderMap;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.UUID;

/**
 * What an ext_proc service reads from a request's headers and Envoy's metadata.
 *
 * @param method {@code :method}
 * @param path {@code :path} without the query string
 * @param contentType {@code content-type}, or null
 * @param requestId {@code x-request-id}, generated when absent
 * @param requestIdGenerated whether the id was generated here (and must be set on the request)
 * @param objective {@code x-gateway-inference-objective}, or null
 * @param subset the subset hint ({@code envoy.lb.subset_hint}), or null when absent
 * @param contentLength {@code content-length}, or -1 when absent or not a number
 * @param tpotSlo {@code x-slo-tpot-ms} as sent (the request's time-per-output-token objective in
 *     milliseconds), or null when absent
 * @param testEndpointSelection {@code test-epp-endpoint-selection} as sent (the conformance suite's
 *     endpoint restriction, honoured only in conformance test mode), or null when absent
 * @param headers every request header as Envoy sent it, for {@link #header}
 */
public record RequestHead(
    String method,
    String path,
    String contentType,
    String requestId,
    boolean requestIdGenerated,
    String objective,
    Set<String> subset,
    long contentLength,
    String tpotSlo,
    String testEndpointSelection,
    HeaderMap headers) {

  /** The header carrying a request's time-per-output-token objective, in milliseconds. */
  public static final String TPOT_SLO_HEADER = "x-slo-tpot-ms";

  /** The conformance suite's endpoint-selection header. */
  public static final String TEST_SELECTION_HEADER = "test-epp-endpoint-selection";

  static final String SUBSET_NAMESPACE = "envoy.lb.subset_hint";
  static final String SUBSET_KEY = "x-gateway-destination-endpoint-subset";

  public static RequestHead from(HttpHeaders headers, Metadata metadata) {
    String method = "";
    String path = "";
    String contentType = null;
    String requestId = null;
    String objective = null;
    long contentLength = -1;
    String tpotSlo = null;
    String testSelection = null;
    for (HeaderValue h : headers.getHeaders().getHeadersList()) {
      String v = value(h);
      switch (h.getKey()) {
        case ":method" -> method = v;
        case ":path" -> path = stripQuery(v);
        case "content-type" -> contentType = v;
        case "x-request-id" -> requestId = v.isBlank() ? null : v;
        case "x-gateway-inference-objective" -> objective = v.isBlank() ? null : v;
        case "content-length" -> contentLength = parseLength(v);
        case TPOT_SLO_HEADER -> tpotSlo = v;
        case TEST_SELECTION_HEADER -> testSelection = v;
        default -> {}
      }
    }
    boolean generated = requestId == null;
    if (generated) {
      requestId = UUID.randomUUID().toString();
    }
    return new RequestHead(
        method,
        path,
        contentType,
        requestId,
        generated,
        objective,
        subset(metadata),
        contentLength,
        tpotSlo,
        testSelection,
        headers.getHeaders());
  }

  /** The first value of the header {@code name} (lower-case), or null when absent. */
  public String header(String name) {
    if (headers == null) {
      return null;
    }
    for (HeaderValue h : headers.getHeadersList()) {
      if (h.getKey().equals(name)) {
        return value(h);
      }
    }
    return null;
  }

  /**
   * A comma list of endpoints ({@code ip:port}, or a bare {@code ip}) as a set, blanks dropped;
   * empty when {@code csv} is null.
   */
  public static Set<String> endpointList(String csv) {
    Set<String> out = new LinkedHashSet<>();
    if (csv != null) {
      addAll(out, csv);
    }
    return out;
  }

  /** Envoy sends {@code raw_value}; older senders use {@code value}. */
  private static String value(HeaderValue h) {
    return h.getRawValue().isEmpty()
        ? h.getValue()
        : h.getRawValue().toString(StandardCharsets.UTF_8);
  }

  private static long parseLength(String v) {
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static String stripQuery(String path) {
    int q = path.indexOf('?');
    return q < 0 ? path : path.substring(0, q);
  }

  private static Set<String> subset(Metadata metadata) {
    if (metadata == null) {
      return null;
    }
    Struct hint = metadata.getFilterMetadataMap().get(SUBSET_NAMESPACE);
    if (hint == null || !hint.containsFields(SUBSET_KEY)) {
      return null;
    }
    Value v = hint.getFieldsOrThrow(SUBSET_KEY);
    Set<String> out = new LinkedHashSet<>();
    if (v.hasListValue()) {
      ListValue list = v.getListValue();
      for (Value item : list.getValuesList()) {
        addAll(out, item.getStringValue());
      }
    } else {
      addAll(out, v.getStringValue());
    }
    return out;
  }

  private static void addAll(Set<String> out, String csv) {
    for (String part : csv.split(",")) {
      if (!part.isBlank()) {
        out.add(part.trim());
      }
    }
  }
}
