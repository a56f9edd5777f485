package dev.pointsman.bench.routing.policy;

import dev.pointsman.bench.routing.workload.BenchRequest;
import java.util.HashMap;
import java.util.Map;

/**
 * A baseline router's own accounting of what it sent where: live requests and prompt tokens per
 * pod, and of those the prompt tokens still waiting for their first token (prefill pending).
 */
final class OwnLoad {
  private final int[] liveRequests;
  private final long[] liveTokens;
  private final long[] prefillTokens;
  private final Map<Long, Boolean> prefilling = new HashMap<>();

  OwnLoad(int pods) {
    liveRequests = new int[pods];
    liveTokens = new long[pods];
    prefillTokens = new long[pods];
  }

  void assign(BenchRequest r, int pod) {
    int tokens = r.sim().promptTokens();
    liveRequests[pod]++;
    liveTokens[pod] += tokens;
    prefillTokens[pod] += tokens;
    prefilling.put(r.id(), Boolean.TRUE);
  }

  void firstToken(BenchRequest r, int pod) {
    if (prefilling.remove(r.id()) != null) {
      prefillTokens[pod] -= r.sim().promptTokens();
    }
  }

  void finish(BenchRequest r, int pod) {
    firstToken(r, pod);
    liveRequests[pod]--;
    liveTokens[pod] -= r.sim().promptTokens();
  }

  int liveRequests(int pod) {
    return liveRequests[pod];
  }

  long liveTokens(int pod) {
    return liveTokens[pod];
  }

  long prefillTokens(int pod) {
    return prefillTokens[pod];
  }

  /** Prompt tokens of live requests past their first token (decoding). */
  long decodeTokens(int pod) {
    return liveTokens[pod] - prefillTokens[pod];
  }
}
