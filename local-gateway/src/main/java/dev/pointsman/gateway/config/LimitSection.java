package dev.pointsman.gateway.config;

/**
 * Buffer and protocol bounds.
 *
 * @param requestBufferBytes request body kept until the picker has echoed it, so that a request can
 *     continue unprocessed (fail-open, or a picker that ends its stream without answering); past it
 *     the copy is dropped and such a request fails with 500 (Envoy's per-stream buffer limit plays
 *     this role)
 * @param responseWindowBytes response bytes sent to the picker and not yet echoed back before the
 *     gateway stops reading from the model server
 * @param maxHeaderBytes largest request header block, HTTP/1.1 and HTTP/2 alike (HTTP/2: the
 *     advertised SETTINGS_MAX_HEADER_LIST_SIZE); larger gets 431 (HCM max_request_headers_kb)
 * @param maxConcurrentStreams HTTP/2 streams a client connection may have open at once; more are
 *     refused with RST_STREAM REFUSED_STREAM (http2_protocol_options.max_concurrent_streams)
 */
public record LimitSection(
    Integer requestBufferBytes,
    Integer responseWindowBytes,
    Integer maxHeaderBytes,
    Integer maxConcurrentStreams) {

  public static final LimitSection DEFAULTS = new LimitSection(null, null, null, null);

  public LimitSection {
    requestBufferBytes = requestBufferBytes == null ? 1 << 20 : requestBufferBytes;
    responseWindowBytes = responseWindowBytes == null ? 256 << 10 : responseWindowBytes;
    maxHeaderBytes = maxHeaderBytes == null ? 64 << 10 : maxHeaderBytes;
    maxConcurrentStreams = maxConcurrentStreams == null ? 1024 : maxConcurrentStreams;
    if (requestBufferBytes < 0) {
      throw new IllegalArgumentException(
          "requestBufferBytes: " + requestBufferBytes + " (expected >= 0)");
    }
    if (responseWindowBytes < 1024) {
      throw new IllegalArgumentException(
          "responseWindowBytes: " + responseWindowBytes + " (expected >= 1024)");
    }
    if (maxHeaderBytes < 1024) {
      throw new IllegalArgumentException(
          "maxHeaderBytes: " + maxHeaderBytes + " (expected >= 1024)");
    }
    if (maxConcurrentStreams < 1) {
      throw new IllegalArgumentException(
          "maxConcurrentStreams: " + maxConcurrentStreams + " (expected >= 1)");
    }
  }

  public LimitSection withMaxHeaderBytes(int bytes) {
    return new LimitSection(requestBufferBytes, responseWindowBytes, bytes, maxConcurrentStreams);
  }

  public LimitSection withMaxConcurrentStreams(int streams) {
    return new LimitSection(requestBufferBytes, responseWindowBytes, maxHeaderBytes, streams);
  }
}
