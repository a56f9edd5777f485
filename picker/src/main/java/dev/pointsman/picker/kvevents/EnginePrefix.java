package dev.pointsman.picker.kvevents;

import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import dev.pointsman.picker.scheduling.prefix.PrecisePrefix;
import dev.pointsman.picker.scheduling.prefix.TokenBlockHasher;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * The prefix scorer's view of the precise index for one pool: a request's tokens, hashed in the
 * block size the pool's engines report, matched against what each engine holds in GPU memory and,
 * past that, in CPU memory (offloaded blocks, credited at {@code offloadedCredit} of a GPU hit).
 * Requests without token ids (no tokenizer) fall back to the approximate index.
 */
public final class EnginePrefix implements PrecisePrefix {
  private static final int MAX_BLOCKS = 1 << 14;

  private final KvBlockIndex index;
  private final PromptTokenizer tokenizer;
  private final double offloadedCredit;

  /** Offloaded blocks credited at {@link KvEventsSettings#DEFAULT_OFFLOADED_CREDIT}. */
  public EnginePrefix(KvBlockIndex index, PromptTokenizer tokenizer) {
    this(index, tokenizer, KvEventsSettings.DEFAULT_OFFLOADED_CREDIT);
  }

  public EnginePrefix(KvBlockIndex index, PromptTokenizer tokenizer, double offloadedCredit) {
    this.index = index;
    this.tokenizer = tokenizer;
    this.offloadedCredit = offloadedCredit;
  }

  @Override
  public Match match(SchedulingRequest request, List<Candidate> candidates) {
    int blockSize = 0;
    for (Candidate c : candidates) {
      blockSize = Math.max(blockSize, index.blockSize(c.address()));
    }
    if (blockSize == 0) {
      return null; // no engine has reported a block yet
    }
    int[] tokens = tokenizer.tokenize(request);
    if (tokens == null) {
      return null;
    }
    long[] keys = TokenBlockHasher.hash(request.adapter(), tokens, blockSize, MAX_BLOCKS);
    Map<String, Integer> at = new HashMap<>(candidates.size() * 2);
    for (int i = 0; i < candidates.size(); i++) {
      at.put(candidates.get(i).address(), i);
    }
    ToIntFunction<String> indexOf = a -> at.getOrDefault(a, -1);
    int[] matched = index.match(keys, indexOf, candidates.size());
    int[] offloaded = index.matchOffloaded(keys, matched, indexOf);
    return new Match(matched, offloaded, offloadedCredit, keys.length, blockSize);
  }
}
