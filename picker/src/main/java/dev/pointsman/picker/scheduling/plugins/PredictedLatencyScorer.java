package dev.pointsman.picker.scheduling.plugins;

import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.CycleState;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import dev.pointsman.picker.scheduling.Scorer;
import dev.pointsman.picker.scheduling.SpeedProfile;
import dev.pointsman.picker.scheduling.latency.LatencyModel;
import java.util.List;

/**
 * {@code predicted-latency-scorer}: prefers the endpoint where this request's time to first token
 * is predicted to be lowest. The estimate is analytic: the prompt tokens queued ahead (scraped
 * waiting requests at an assumed mean prompt size, plus the exact tokens the picker sent since the
 * scrape) and this prompt's uncached part, processed in engine steps whose length depends on the
 * endpoint's GPU speed and its running batch. Score is {@code fastest / this}, in (0,1].
 */
public final class PredictedLatencyScorer implements Scorer {
  public static final String TYPE = "predicted-latency-scorer";

  /** Predictions are floored here so that a score is always finite and positive. */
  private static final double MIN_SECONDS = 1e-4;

  private final double meanPromptTokens;
  private final double loraLoadSeconds;

  /**
   * @param meanPromptTokens prompt tokens assumed for each scraped waiting request
   */
  public PredictedLatencyScorer(double meanPromptTokens) {
    this(meanPromptTokens, 0.5);
  }

  /**
   * @param meanPromptTokens prompt tokens assumed per scraped waiting request until the picker has
   *     observed enough requests to know
   * @param loraLoadSeconds the time to load an adapter that is not resident on an endpoint
   */
  public PredictedLatencyScorer(double meanPromptTokens, double loraLoadSeconds) {
    if (!(meanPromptTokens >= 0) || Double.isInfinite(meanPromptTokens)) {
      throw new IllegalArgumentException(
          "meanPromptTokens: " + meanPromptTokens + " (expected a finite number >= 0)");
    }
    if (!(loraLoadSeconds >= 0) || Double.isInfinite(loraLoadSeconds)) {
      throw new IllegalArgumentException(
          "loraLoadSeconds: " + loraLoadSeconds + " (expected a finite number >= 0)");
    }
    this.meanPromptTokens = meanPromptTokens;
    this.loraLoadSeconds = loraLoadSeconds;
  }

  public PredictedLatencyScorer() {
    this(256);
  }

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public void score(
      SchedulingRequest request, List<Candidate> candidates, CycleState context, double[] out) {
    int n = candidates.size();
    double[] analytic = new double[n];
    LatencyModel model = context.latencyModel();
    double best = Double.POSITIVE_INFINITY;
    double perWaiting =
        Double.isNaN(context.meanQueuedTokens()) ? meanPromptTokens : context.meanQueuedTokens();
    for (int i = 0; i < n; i++) {
      double uncached = request.promptTokens() - context.cachedTokens(i, request.promptTokens());
      analytic[i] = predictTtftSeconds(candidates.get(i), uncached, perWaiting);
      if (request.adapter() != null
          && LoraAffinityScorer.affinity(candidates.get(i), request.adapter(), context) < 1.0) {
        analytic[i] += loraLoadSeconds;
      }
      out[i] =
          Math.max(
              MIN_SECONDS,
              model == null
                  ? analytic[i]
                  : model.predict(candidates.get(i).address(), analytic[i]));
      best = Math.min(best, out[i]);
    }
    context.analyticTtft(analytic);
    for (int i = 0; i < n; i++) {
      out[i] = best / out[i];
    }
  }

  /** Predicted seconds to this request's first token on {@code c}. */
  public double predictTtftSeconds(Candidate c, double uncachedPromptTokens) {
    return predictTtftSeconds(c, uncachedPromptTokens, meanPromptTokens);
  }

  /**
   * Predicted seconds to this request's first token on {@code c}, counting each scraped waiting
   * request as {@code tokensPerWaiting} prompt tokens to prefill.
   */
  public double predictTtftSeconds(
      Candidate c, double uncachedPromptTokens, double tokensPerWaiting) {
    SpeedProfile p = c.profile();
    double scraped = c.metrics().waitingRequests() * tokensPerWaiting + c.load().pendingTokens();
    // the prefill the picker itself sent and has not seen a first token for is known exactly;
    // the scrape may add work from other routers
    double queued = Math.max(scraped, c.load().prefillTokens());
    double work = Math.max(1.0, queued + uncachedPromptTokens);
    double running = c.running();
    double perStepTokens = Math.max(1.0, p.tokenBudget() - running);
    double steps = Math.ceil(work / perStepTokens);
    double stepSeconds =
        Math.max(
            p.decodeStepSeconds(),
            (Math.min(work, perStepTokens) + running) / p.prefillTokensPerSecond());
    return steps * stepSeconds;
  }
}
