package dev.pointsman.picker.scrape;

import java.util.concurrent.TimeoutException;

/** A request not answered within the scrape timeout; its connection is closed. */
final class ScrapeTimeoutException extends TimeoutException {
  ScrapeTimeoutException(long timeoutNanos) {
    super("no complete answer within " + timeoutNanos / 1_000_000 + " ms");
  }
}
