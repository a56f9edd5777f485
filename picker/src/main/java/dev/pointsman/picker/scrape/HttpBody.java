package dev.pointsman.picker.scrape;

import java.util.Objects;

/**
 * An HTTP response as the scraper reads it. The bytes may be a buffer its connection reuses: valid
 * until the next request on that connection, so read them before that (the scraper starts no
 * request on a connection before the previous answer was handled).
 *
 * @param status the status code
 * @param contentType the {@code Content-Type} header, {@code ""} when absent
 * @param bytes holds the body in {@code [0, length)}
 * @param length the body's length
 */
record HttpBody(int status, String contentType, byte[] bytes, int length) {
  HttpBody {
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(bytes, "bytes");
    if (status < 100 || status > 999) {
      throw new IllegalArgumentException("status: " + status + " (expected 100..999)");
    }
    if (length < 0 || length > bytes.length) {
      throw new IllegalArgumentException(
          "length: " + length + " (expected 0.." + bytes.length + ")");
    }
  }
}
