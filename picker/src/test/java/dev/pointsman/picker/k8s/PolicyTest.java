package dev.pointsman.picker.k8s;

import static dev.pointsman.picker.k8s.K8sObjects.pod;
import static dev.pointsman.picker.k8s.K8sObjects.policy;
import static dev.pointsman.picker.k8s.K8sObjects.pool;
import static dev.pointsman.picker.k8s.K8sObjects.running;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.picker.k8s.api.AcceptanceStatus;
import dev.pointsman.picker.k8s.api.FilterSpec;
import dev.pointsman.picker.k8s.api.PickerPolicy;
import dev.pointsman.picker.k8s.api.PickerPolicySpec;
import dev.pointsman.picker.k8s.api.PickerSpec;
import dev.pointsman.picker.k8s.api.ScorerSpec;
import dev.pointsman.picker.k8s.api.TargetRef;
import dev.pointsman.picker.scheduling.SchedulingPolicy;
import dev.pointsman.picker.scheduling.WeightedScorer;
import dev.pointsman.picker.scheduling.plugins.TpotSloFilter;
import dev.pointsman.testing.Await;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** PickerPolicies: per pool, namespace default, invalid specs, deletion, status and the Lease. */
class PolicyTest {
  static final Map<String, String> LABELS = Map.of("app", "vllm");

  private MockCluster cluster;
  private MockCluster.Picker picker;

  @BeforeEach
  void setUp() {
    cluster = new MockCluster();
    picker = cluster.picker();
    cluster.admin.resource(pool("llama", LABELS, 8000)).create();
    cluster.admin.resource(pool("other", Map.of("app", "other"), 8000)).create();
    cluster.admin.resource(running(pod("a", LABELS), "10.0.0.1", true)).create();
    Await.until("pools", () -> picker.datastore.pools().size() == 2);
  }

  @AfterEach
  void tearDown() {
    cluster.close();
  }

  static PickerPolicySpec spec(String target, List<ScorerSpec> scorers, PickerSpec picker) {
    return new PickerPolicySpec(
        target == null ? null : new TargetRef(null, "InferencePool", target),
        null,
        scorers,
        picker,
        null,
        null);
  }

  static ScorerSpec scorer(String type, double weight) {
    return new ScorerSpec(type, weight, null);
  }

  static Map<String, Double> weights(SchedulingPolicy p) {
    return p.scorers().stream()
        .collect(java.util.stream.Collectors.toMap(w -> w.scorer().type(), WeightedScorer::weight));
  }

  @Test
  void aPoolPolicyAppliesToItsPoolTheDefaultToTheOthers() {
    SchedulingPolicy builtIn = picker.registry.policy("llama");
    create("ns-default", spec(null, List.of(scorer("kv-cache-utilization-scorer", 7)), null));
    create("llama", spec("llama", List.of(scorer("queue-scorer", 3)), null));
    Await.until(
        "llama policy",
        () -> weights(picker.registry.policy("llama")).equals(Map.of("queue-scorer", 3.0)));
    Await.until(
        "namespace default on other",
        () ->
            weights(picker.registry.policy("other"))
                .equals(Map.of("kv-cache-utilization-scorer", 7.0)));
    awaitAccepted("llama", "True", "Accepted");
    awaitAccepted("ns-default", "True", "Accepted");

    // deleting the pool policy falls back to the namespace default, then to the built-in one
    cluster
        .admin
        .resources(PickerPolicy.class)
        .inNamespace(MockCluster.NS)
        .withName("llama")
        .delete();
    Await.until(
        "llama on namespace default",
        () ->
            weights(picker.registry.policy("llama"))
                .equals(Map.of("kv-cache-utilization-scorer", 7.0)));
    cluster
        .admin
        .resources(PickerPolicy.class)
        .inNamespace(MockCluster.NS)
        .withName("ns-default")
        .delete();
    Await.until("built-in default", () -> picker.registry.policy("llama") == builtIn);
  }

  @Test
  void anInvalidChangeKeepsTheLastGoodPolicyAndSaysWhyInStatus() {
    create("llama", spec("llama", List.of(scorer("queue-scorer", 3)), null));
    Await.until(
        "valid policy",
        () -> weights(picker.registry.policy("llama")).equals(Map.of("queue-scorer", 3.0)));
    SchedulingPolicy good = picker.registry.policy("llama");

    edit(
        "llama",
        spec(
            "llama",
            List.of(
                scorer("queue-scorer", 3),
                scorer("kv-cache-utilization-scorer", 1),
                scorer("gpu-vibes-scorer", 1)),
            null));
    Condition c = awaitAccepted("llama", "False", "Invalid");
    assertThat(c.getMessage())
        .startsWith("spec.scorers[2].type: 'gpu-vibes-scorer' (expected one of [")
        .endsWith("keeping generation 1 in force");
    assertThat(picker.registry.policy("llama")).isSameAs(good);
    PickerPolicy stored = get("llama");
    assertThat(stored.getStatus().observedGeneration()).isEqualTo(generation(stored));

    // fixing it is accepted and takes effect
    edit(
        "llama",
        spec("llama", List.of(scorer("prefix-cache-scorer", 5)), new PickerSpec(null, null, null)));
    awaitAccepted("llama", "True", "Accepted");
    Await.until(
        "fixed policy in force",
        () -> weights(picker.registry.policy("llama")).equals(Map.of("prefix-cache-scorer", 5.0)));
  }

  @Test
  void checksWhatTheCrdCelRulesCheck() {
    create("zero", spec("llama", List.of(scorer("queue-scorer", 0)), null));
    assertThat(awaitAccepted("zero", "False", "Invalid").getMessage())
        .startsWith("spec.scorers: no scorer has weight > 0")
        .endsWith("this policy is not in force");
    create(
        "topk",
        spec(
            "other",
            List.of(scorer("queue-scorer", 1)),
            new PickerSpec("max-score-picker", 3, null)));
    assertThat(awaitAccepted("topk", "False", "Invalid").getMessage())
        .startsWith("spec.picker.topK: 3 (expected only with type weighted-random-picker");
  }

  /** A policy whose only filter is the TPOT filter with the pool objective {@code objectiveMs}. */
  private static PickerPolicySpec tpotObjective(double objectiveMs) {
    return new PickerPolicySpec(
        null,
        List.of(new FilterSpec("tpot-slo-filter", Map.of("objectiveMs", objectiveMs))),
        List.of(scorer("queue-scorer", 1)),
        null,
        null,
        null);
  }

  @Test
  void filterParametersReachTheFilterAndABadOneNamesItsField() {
    assertThatThrownBy(() -> PolicyCompiler.compile(tpotObjective(0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("spec.filters[0].parameters.objectiveMs: 0.0");

    assertThat(PolicyCompiler.compile(tpotObjective(50)).filters())
        .singleElement()
        .isInstanceOf(TpotSloFilter.class);
  }

  @Test
  void theOlderOfTwoPoliciesForOnePoolWins() {
    create("first", spec("llama", List.of(scorer("queue-scorer", 3)), null));
    awaitAccepted("first", "True", "Accepted");
    create("second", spec("llama", List.of(scorer("queue-scorer", 9)), null));
    Condition c = awaitAccepted("second", "False", "Conflicted");
    assertThat(c.getMessage()).contains("'first'");
    assertThat(weights(picker.registry.policy("llama"))).isEqualTo(Map.of("queue-scorer", 3.0));
  }

  @Test
  void onlyTheLeaseHolderWritesStatus() {
    MockCluster.Picker second = cluster.picker(null, "picker-1");
    Await.until("second ready", second.source::ready);
    Await.until("exactly one leader", () -> picker.source.leader() ^ second.source.leader());
    create("llama", spec("llama", List.of(scorer("queue-scorer", 3)), null));
    awaitAccepted("llama", "True", "Accepted");
    // both replicas serve the policy
    Await.until(
        "follower serves it too",
        () -> weights(second.registry.policy("llama")).equals(Map.of("queue-scorer", 3.0)));

    // the leader goes away: the other replica takes the Lease and keeps status current
    MockCluster.Picker leader = picker.source.leader() ? picker : second;
    MockCluster.Picker follower = leader == picker ? second : picker;
    leader.close();
    Await.until("follower leads", follower.source::leader);
    edit("llama", spec("llama", List.of(scorer("nope-scorer", 3)), null));
    awaitAccepted("llama", "False", "Invalid");
  }

  private void create(String name, PickerPolicySpec spec) {
    cluster.admin.resource(policy(name, spec)).create();
  }

  /** As kubectl edit does: read, change, write; retried when the status writer got there first. */
  private void edit(String name, PickerPolicySpec spec) {
    MockCluster.editRetrying(
        cluster.admin.resources(PickerPolicy.class).inNamespace(MockCluster.NS).withName(name),
        p -> {
          p.setSpec(spec);
          return p;
        });
  }

  private PickerPolicy get(String name) {
    return cluster
        .admin
        .resources(PickerPolicy.class)
        .inNamespace(MockCluster.NS)
        .withName(name)
        .get();
  }

  private static long generation(PickerPolicy p) {
    Long g = p.getMetadata().getGeneration();
    return g == null ? 0 : g;
  }

  /** Waits until the stored object's current generation has this Accepted condition. */
  private Condition awaitAccepted(String name, String status, String reason) {
    Condition[] found = new Condition[1];
    try {
      awaitCondition(name, status, reason, found);
    } catch (AssertionError e) {
      PickerPolicy p = get(name);
      throw new AssertionError(
          e.getMessage()
              + "; last seen generation "
              + (p == null ? null : p.getMetadata().getGeneration())
              + ", status "
              + (p == null ? null : p.getStatus()),
          e);
    }
    return found[0];
  }

  private void awaitCondition(String name, String status, String reason, Condition[] found) {
    Await.until(
        name + " Accepted=" + status + "/" + reason,
        () -> {
          PickerPolicy p = get(name);
          AcceptanceStatus s = p == null ? null : p.getStatus();
          Condition c = StatusWriter.accepted(s);
          if (c == null
              || !status.equals(c.getStatus())
              || !reason.equals(c.getReason())
              || s.observedGeneration() == null
              || s.observedGeneration() != generation(p)) {
            return false;
          }
          found[0] = c;
          return true;
        });
  }
}
