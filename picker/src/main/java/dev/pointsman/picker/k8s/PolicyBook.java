package dev.pointsman.picker.k8s;

import dev.pointsman.picker.k8s.api.PickerPolicy;
import dev.pointsman.picker.k8s.api.PickerPolicySpec;
import dev.pointsman.picker.scheduling.SchedulingPolicy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides which PickerPolicy is in force for each pool, and the verdict on each policy.
 *
 * <p>For a pool: the oldest valid policy targeting it; else the oldest valid namespace default (a
 * policy without {@code targetRef}); else Pointsman's built-in default ({@code null} here). A
 * policy whose current generation is invalid keeps its last valid generation in force, so a typo in
 * {@code kubectl edit} never drops a pool to the default. Remembers compiled specs and last good
 * policies between calls; not thread-safe (the reconciler's single thread owns it).
 */
final class PolicyBook {
  /** The result of one pass. */
  record Outcome(Map<String, SchedulingPolicy> byPool, Map<String, Verdict> verdicts) {}

  private record Compiled(PickerPolicySpec spec, SchedulingPolicy policy, String error) {}

  private record Good(long generation, SchedulingPolicy policy) {}

  private final Map<String, Compiled> compiled = new HashMap<>();
  private final Map<String, Good> lastGood = new HashMap<>();

  Outcome resolve(Collection<PickerPolicy> policies, Collection<String> pools) {
    List<PickerPolicy> ordered = new ArrayList<>(policies);
    ordered.sort(Objects2.OLDEST_FIRST);
    Set<String> live = new HashSet<>();
    Map<String, SchedulingPolicy> effective = new HashMap<>();
    Map<String, Verdict> verdicts = new LinkedHashMap<>();
    for (PickerPolicy p : ordered) {
      String uid = Objects2.uid(p);
      live.add(uid);
      Compiled c = compile(uid, p.getSpec());
      long generation = Objects2.generation(p);
      if (c.policy() != null) {
        lastGood.put(uid, new Good(generation, c.policy()));
        effective.put(uid, c.policy());
        verdicts.put(Objects2.name(p), Verdict.accepted(generation, acceptedMessage(p, pools)));
      } else {
        Good good = lastGood.get(uid);
        String kept =
            good == null
                ? "; this policy is not in force"
                : "; keeping generation " + good.generation() + " in force";
        if (good != null) {
          effective.put(uid, good.policy());
        }
        verdicts.put(Objects2.name(p), Verdict.invalid(generation, c.error() + kept));
      }
    }
    compiled.keySet().retainAll(live);
    lastGood.keySet().retainAll(live);
    Map<String, SchedulingPolicy> byPool = new HashMap<>();
    PickerPolicy namespaceDefault = first(ordered, effective, null);
    for (String pool : pools) {
      PickerPolicy chosen = first(ordered, effective, pool);
      if (chosen == null) {
        chosen = namespaceDefault;
      }
      if (chosen != null) {
        byPool.put(pool, effective.get(Objects2.uid(chosen)));
      }
    }
    markConflicts(ordered, effective, verdicts);
    return new Outcome(byPool, verdicts);
  }

  private Compiled compile(String uid, PickerPolicySpec spec) {
    Compiled c = compiled.get(uid);
    if (c != null && java.util.Objects.equals(c.spec(), spec)) {
      return c;
    }
    try {
      c = new Compiled(spec, PolicyCompiler.compile(spec), null);
    } catch (RuntimeException e) {
      c = new Compiled(spec, null, e.getMessage());
    }
    compiled.put(uid, c);
    return c;
  }

  /** The oldest policy with an effective version for {@code pool} (null: namespace defaults). */
  private static PickerPolicy first(
      List<PickerPolicy> ordered, Map<String, SchedulingPolicy> effective, String pool) {
    for (PickerPolicy p : ordered) {
      if (effective.containsKey(Objects2.uid(p)) && java.util.Objects.equals(target(p), pool)) {
        return p;
      }
    }
    return null;
  }

  private static void markConflicts(
      List<PickerPolicy> ordered,
      Map<String, SchedulingPolicy> effective,
      Map<String, Verdict> verdicts) {
    Map<String, String> winner = new HashMap<>();
    for (PickerPolicy p : ordered) {
      if (!effective.containsKey(Objects2.uid(p))) {
        continue;
      }
      String key = target(p) == null ? "" : target(p);
      String first = winner.putIfAbsent(key, Objects2.name(p));
      if (first != null && verdicts.get(Objects2.name(p)).accepted()) {
        String what = key.isEmpty() ? "the namespace default" : "pool '" + key + "'";
        verdicts.put(
            Objects2.name(p),
            Verdict.conflicted(
                Objects2.generation(p),
                "PickerPolicy '" + first + "' is older and already sets " + what));
      }
    }
  }

  static String target(PickerPolicy p) {
    return p.getSpec() == null || p.getSpec().targetRef() == null
        ? null
        : p.getSpec().targetRef().name();
  }

  private static String acceptedMessage(PickerPolicy p, Collection<String> pools) {
    String target = target(p);
    if (target == null) {
      return "accepted as the namespace default";
    }
    return pools.contains(target)
        ? "accepted for InferencePool '" + target + "'"
        : "accepted; InferencePool '" + target + "' not found (applies when it appears)";
  }
}
