package dev.pointsman.gateway.config;

/**
 * Buffer bounds.
 *
 * @param requestBufferBytes request body kept until the picker has echoed it, so that a request can
 *     continue unprocessed (fail-open, or a picker that ends its stream without answering); past it
 *     the copy is dropped and such a request fails with 500 (Envoy's per-stream buffer limit plays
 *     this role)
 * @param responseWindowBytes response bytes sent to the picker and not yet echoed back before the
 *     gateway stops reading from the model server
 * @param maxHeaderBytes largest request or response header block
 */
public record LimitSection(
    Integer requestBufferBytes, Integer responseWindowBytes, Integer maxHeaderBytes) {

  public static final LimitSection DEFAULTS = new LimitSection(null, null, null);

  public LimitSection {
    requestBufferBytes = requestBufferBytes == null ? 1 << 20 : requestBufferBytes;
    responseWindowBytes = responseWindowBytes == null ? 256 << 10 : responseWindowBytes;
    maxHeaderBytes = maxHeaderBytes == null ? 64 << 10 : maxHeaderBytes;
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
  }
}
