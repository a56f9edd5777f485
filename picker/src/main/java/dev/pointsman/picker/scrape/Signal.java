package dev.pointsman.picker.scrape;

/** An engine-neutral signal an engine may expose; reported when a scrape lacks it. */
public enum Signal {
  WAITING_REQUESTS(
      "the waiting-request count",
      "queue scoring counts only the requests the picker sent there since the last scrape"),
  RUNNING_REQUESTS(
      "the running-request count",
      "the running batch is read as empty (running-requests scoring and latency predictions see 0)"),
  KV_CACHE_USAGE(
      "KV-cache usage",
      "KV-cache scoring reads the cache as empty but for the work the picker sent since the scrape"),
  KV_CAPACITY(
      "KV-cache capacity",
      "the picker's pending work is not weighed against the cache size, the running batch is priced"
          + " at 512 tokens a request, and the prefix index keeps its default size there"),
  PREFIX_CACHE(
      "a prefix-cache hit rate",
      "no engine hit rate is known; prefix scoring, on the picker's own index of the prompts it"
          + " sent, is unaffected");

  private final String description;
  private final String fallback;

  Signal(String description, String fallback) {
    this.description = description;
    this.fallback = fallback;
  }

  /** The label value in meters: {@code waiting_requests}, {@code kv_capacity}… */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  String description() {
    return description;
  }

  /** What the picker does without it. */
  String fallback() {
    return fallback;
  }
}
