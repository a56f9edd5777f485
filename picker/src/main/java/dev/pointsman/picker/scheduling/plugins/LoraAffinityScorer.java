package dev.pointsman.picker.scheduling.plugins;

import dev.pointsman.picker.scheduling.AdapterHistory;
import dev.pointsman.picker.scheduling.Candidate;
import dev.pointsman.picker.scheduling.CycleState;
import dev.pointsman.picker.scheduling.EndpointMetrics;
import dev.pointsman.picker.scheduling.LoraState;
import dev.pointsman.picker.scheduling.SchedulingRequest;
import dev.pointsman.picker.scheduling.Scorer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code lora-affinity-scorer}: for a LoRA request, prefers an endpoint where the adapter is
 * resident (1.0): it has running requests there, or it is among the last few distinct adapters the
 * picker sent there (vLLM's metric does not list loaded but idle adapters, and a server keeps its
 * most recently used ones loaded). Then one where its load is under way (0.9), then one with a free
 * slot (0.8), then one where loading it evicts an idle adapter (0.7), then one where it is waiting
 * behind slots that all hold live requests (0.6), then one where every slot holds an adapter with
 * live requests (0), or one whose {@code /v1/models} does not list it (0). Base-model requests
 * score 1 everywhere. See {@link LoraState}.
 */
public final class LoraAffinityScorer implements Scorer {
  public static final String TYPE = "lora-affinity-scorer";

  /** Adapters assumed resident when the endpoint does not say how many slots it has. */
  static final int DEFAULT_SLOTS = 4;

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public void score(
      SchedulingRequest request, List<Candidate> candidates, CycleState context, double[] out) {
    String adapter = request.adapter();
    for (int i = 0; i < candidates.size(); i++) {
      out[i] = adapter == null ? 1.0 : affinity(candidates.get(i), adapter, context);
    }
  }

  static double affinity(Candidate c, String adapter, CycleState context) {
    return state(c, adapter, context).affinity();
  }

  /** Where {@code adapter} stands on {@code c}, computed once per decision. */
  public static LoraState state(Candidate c, String adapter, CycleState context) {
    if (adapter == null) {
      return LoraState.NONE;
    }
    return context.loraState(c.address(), () -> compute(c, adapter, context));
  }

  private static LoraState compute(Candidate c, String adapter, CycleState context) {
    EndpointMetrics m = c.metrics();
    String address = c.address();
    boolean reported =
        m.runningAdapters().contains(adapter) || m.waitingAdapters().contains(adapter);
    if (!reported && !m.listedAdapters().allows(adapter)) {
      // the listing is read less often than the metrics: requests for the adapter prove it is there
      return LoraState.UNLISTED;
    }
    if (context.loading(address, adapter)) {
      return LoraState.LOADING;
    }
    int slots = m.maxLoras() < 0 ? DEFAULT_SLOTS : m.maxLoras();
    Set<String> recent = context.recentAdapters(address, slots);
    if (m.runningAdapters().contains(adapter) || recent.contains(adapter)) {
      return LoraState.RESIDENT;
    }
    // a slot can be had only from an adapter with nothing live on it
    Set<String> pinned = new HashSet<>(m.runningAdapters());
    pinned.addAll(m.waitingAdapters());
    pinned.addAll(context.liveAdapters(address));
    pinned.remove(adapter);
    boolean full = m.maxLoras() >= 0 && pinned.size() >= m.maxLoras();
    if (m.waitingAdapters().contains(adapter)) {
      return full ? LoraState.WAITING : LoraState.LOADING;
    }
    if (full) {
      return LoraState.BLOCKED;
    }
    Set<String> held = new HashSet<>(pinned);
    held.addAll(recent);
    boolean evicts = m.maxLoras() >= 0 && held.size() >= m.maxLoras();
    boolean warm = context.recentAdapters(address, AdapterHistory.DEFAULT_DEPTH).contains(adapter);
    if (evicts) {
      return warm ? LoraState.WARM_EVICT : LoraState.COLD_EVICT;
    }
    return warm ? LoraState.WARM_LOAD : LoraState.COLD_LOAD;
  }
}
