package dev.pointsman.picker.scrape;

import java.io.IOException;

/** A response body longer than the scraper reads; the connection is closed. */
final class BodyTooLargeException extends IOException {
  BodyTooLargeException(long length, int max) {
    super("response body: " + length + " bytes or more (expected <= " + max + ")");
  }
}
