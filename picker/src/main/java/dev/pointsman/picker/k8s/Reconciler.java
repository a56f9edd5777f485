package dev.pointsman.picker.k8s;

import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.inference.model.ModelsConfig;
import dev.pointsman.picker.datastore.Datastore;
import dev.pointsman.picker.datastore.PoolDefinition;
import dev.pointsman.picker.flowcontrol.Budget;
import dev.pointsman.picker.k8s.api.InferencePool;
import dev.pointsman.picker.k8s.api.ModelRoute;
import dev.pointsman.picker.k8s.api.PickerPolicy;
import dev.pointsman.picker.k8s.api.TenantBudget;
import dev.pointsman.picker.routing.PolicyRegistry;
import dev.pointsman.picker.scheduling.SchedulingPolicy;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Computes the picker's state from the informer caches and publishes what changed: pool membership
 * to the datastore, each pool's policy to the registry (one atomic swap per pool; a decision reads
 * its policy once, so in-flight requests are never disturbed), and a new model resolver. Pure
 * computation plus non-blocking publication; run by one thread at a time.
 */
final class Reconciler {
  /** What the informers hold, at one moment. */
  record Inputs(
      List<InferencePool> pools,
      List<Pod> pods,
      List<ModelRoute> routes,
      List<PickerPolicy> policies,
      List<TenantBudget> budgets) {
    Inputs(
        List<InferencePool> pools,
        List<Pod> pods,
        List<ModelRoute> routes,
        List<PickerPolicy> policies) {
      this(pools, pods, routes, policies, List.of());
    }
  }

  /**
   * The verdicts to write into status, by object name, and the budgets accepted (whose status
   * carries what they have left).
   */
  record Verdicts(
      Map<String, Verdict> routes,
      Map<String, Verdict> policies,
      Map<String, Verdict> budgets,
      Map<String, Budget> accepted) {
    Verdicts(Map<String, Verdict> routes, Map<String, Verdict> policies) {
      this(routes, policies, Map.of(), Map.of());
    }
  }

  private final String boundPool;
  private final Datastore datastore;
  private final PolicyRegistry registry;
  private final AtomicReference<ModelResolver> resolver;
  private final Consumer<String> warn;
  private final Consumer<List<Budget>> budgets;
  private final PolicyBook book = new PolicyBook();
  private List<Budget> publishedBudgets;
  private List<PoolDefinition> publishedPools;
  private Map<String, SchedulingPolicy> publishedPolicies = Map.of();
  private ModelsConfig publishedModels;
  private Set<String> reportedProblems = Set.of();

  Reconciler(
      String boundPool,
      Datastore datastore,
      PolicyRegistry registry,
      AtomicReference<ModelResolver> resolver,
      Consumer<String> warn) {
    this(boundPool, datastore, registry, resolver, warn, b -> {});
  }

  /**
   * @param budgets told the TenantBudgets accepted, whenever they change
   */
  Reconciler(
      String boundPool,
      Datastore datastore,
      PolicyRegistry registry,
      AtomicReference<ModelResolver> resolver,
      Consumer<String> warn,
      Consumer<List<Budget>> budgets) {
    this.budgets = budgets;
    this.boundPool = boundPool;
    this.datastore = datastore;
    this.registry = registry;
    this.resolver = resolver;
    this.warn = warn;
  }

  Verdicts reconcile(Inputs in) {
    List<String> problems = new ArrayList<>();
    List<PoolDefinition> pools = PoolMembership.compute(in.pools(), in.pods(), boundPool, problems);
    if (!pools.equals(publishedPools)) {
      datastore.setPools(pools);
      publishedPools = pools;
    }
    List<String> names = pools.stream().map(PoolDefinition::name).toList();
    PolicyBook.Outcome policies = book.resolve(in.policies(), names);
    publishPolicies(policies.byPool());
    ModelCatalog.Outcome models = ModelCatalog.build(in.routes(), in.pools());
    if (!models.config().equals(publishedModels)) {
      resolver.set(ModelResolver.of(models.config()));
      publishedModels = models.config();
    }
    BudgetCatalog.Outcome tenants = BudgetCatalog.build(in.budgets());
    if (!tenants.budgets().equals(publishedBudgets)) {
      budgets.accept(tenants.budgets());
      publishedBudgets = tenants.budgets();
    }
    report(problems);
    return new Verdicts(
        models.verdicts(), policies.verdicts(), tenants.verdicts(), tenants.accepted());
  }

  private void publishPolicies(Map<String, SchedulingPolicy> next) {
    Set<String> pools = new HashSet<>(publishedPolicies.keySet());
    pools.addAll(next.keySet());
    for (String pool : pools) {
      SchedulingPolicy policy = next.get(pool);
      if (policy != publishedPolicies.get(pool)) {
        registry.set(pool, policy);
      }
    }
    publishedPolicies = new HashMap<>(next);
  }

  private void report(List<String> problems) {
    Set<String> now = Set.copyOf(problems);
    for (String p : problems) {
      if (!reportedProblems.contains(p)) {
        warn.accept(p);
      }
    }
    reportedProblems = now;
  }
}
