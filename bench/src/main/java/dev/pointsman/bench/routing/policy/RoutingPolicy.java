package dev.pointsman.bench.routing.policy;

import dev.pointsman.bench.routing.workload.BenchRequest;

/**
 * A routing policy under test. One instance serves one run (one scenario, load and seed), so any
 * state it keeps (in-flight counts, prefix index) is its own. Called on one thread, in virtual-time
 * order: scrapes, then the decision for each arrival, with request lifecycle events in between.
 */
public interface RoutingPolicy {

  /** Kebab-case policy name, as in results files. */
  String name();

  /** Chooses a pod for {@code request}, which arrives now. */
  Route route(BenchRequest request);

  /** A new scrape of {@code pod} was applied to the fleet view. */
  default void onScrape(int pod) {}

  /**
   * The first byte of {@code request}'s response reached the gateway from {@code pod}: its first
   * token when streamed; for a non-streamed one, its whole answer, just before {@link #onFinish}
   * ({@link Gateway} times it).
   */
  default void onFirstToken(BenchRequest request, int pod) {}

  /** {@code request} finished on {@code pod}. */
  default void onFinish(BenchRequest request, int pod) {}

  /**
   * {@code request} failed on {@code pod} (the pod restarted, or refused it): the stream ended
   * without a result. By default it is handled as the end of the request.
   */
  default void onFailed(BenchRequest request, int pod) {
    onFinish(request, pod);
  }

  /**
   * {@code pod} refused {@code request} before answering (it is down or restarting: connection
   * refused). Returns the milliseconds after which this router sends it again, choosing again
   * ({@link #route}), or NaN when it does not: the client gets the error. {@code retriesSoFar}
   * counts the times this request was already sent again. By default no router resends: handled as
   * a failure.
   */
  default double onConnectFailed(BenchRequest request, int pod, int retriesSoFar) {
    onFailed(request, pod);
    return Double.NaN;
  }

  /**
   * {@code pod} answered {@code request} with a client error at once (a 404 for an adapter it does
   * not list): no result, but the pod is healthy. By default handled as a failure.
   */
  default void onRefused(BenchRequest request, int pod) {
    onFailed(request, pod);
  }
}
