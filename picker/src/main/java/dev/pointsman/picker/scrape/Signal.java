package dev.pointsman.picker.scrape;

/** An engine-neutral signal an engine is expected to expose; reported when a scrape lacks it. */
public enum Signal {
  WAITING_REQUESTS,
  RUNNING_REQUESTS,
  KV_CACHE_USAGE,
  KV_CAPACITY,
  PREFIX_CACHE
}
