package dev.pointsman.picker.replication;

import dev.pointsman.picker.scheduling.Decision;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;

/** One fact a replica learned and shares: a pick, or an observed latency. */
public sealed interface Update {
  /** Applies the fact to another replica's scheduler. */
  void applyTo(Scheduler scheduler);

  /** A pick: the endpoint now probably caches these blocks and holds the adapter. */
  record Pick(String address, long[] blocks, String adapter, double uncachedTokens)
      implements Update {
    @Override
    public void applyTo(Scheduler scheduler) {
      scheduler.learnPick(address, blocks, adapter, uncachedTokens);
    }
  }

  /**
   * A pick as another replica shares it: the prompt's keys in its prefix index, kept by {@code
   * keptBy} ({@link PrefixIndex.Checkpoints#keyOf}).
   */
  record KeptPick(
      String address,
      long[] keys,
      PrefixIndex.Checkpoints keptBy,
      String adapter,
      double uncachedTokens)
      implements Update {
    @Override
    public void applyTo(Scheduler scheduler) {
      scheduler.learnPickKeys(address, keys, keptBy, adapter, uncachedTokens);
    }
  }

  /** An observed time to first token, with the prediction made when the request was routed. */
  record Ttft(String address, Decision.Prediction prediction, double ttftSeconds)
      implements Update {
    @Override
    public void applyTo(Scheduler scheduler) {
      scheduler.learnTtft(address, prediction, ttftSeconds);
    }
  }

  /** An observed time per output token. */
  record Tpot(String address, double analyticTpotSeconds, double tpotSeconds) implements Update {
    @Override
    public void applyTo(Scheduler scheduler) {
      scheduler.learnTpot(address, analyticTpotSeconds, tpotSeconds);
    }
  }
}
