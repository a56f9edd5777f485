package dev.pointsman.picker.k8s;

import dev.pointsman.picker.flowcontrol.Budget;
import dev.pointsman.picker.flowcontrol.TokenBudgets;
import dev.pointsman.picker.k8s.api.AcceptanceStatus;
import dev.pointsman.picker.k8s.api.ModelRoute;
import dev.pointsman.picker.k8s.api.PickerPolicy;
import dev.pointsman.picker.k8s.api.TenantBudget;
import dev.pointsman.picker.k8s.api.TenantBudgetStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each ModelRoute's, PickerPolicy's and TenantBudget's {@code Accepted} condition and {@code
 * observedGeneration}, only while this replica leads, only when they differ from what the object
 * already says; an accepted TenantBudget's status also says what the budget has left, refreshed by
 * {@link #refreshBudgets} when it changed. Runs on its own executor: API calls block, informer
 * handlers never do. A failed write is retried after a back-off.
 */
final class StatusWriter {
  static final String CONDITION = "Accepted";
  private static final Logger LOG = LoggerFactory.getLogger(StatusWriter.class);
  private static final Duration RETRY = Duration.ofSeconds(5);

  private final KubernetesClient client;
  private final String namespace;
  private final Clock clock;
  private final ScheduledExecutorService executor;
  private final Function<String, ModelRoute> routes;
  private final Function<String, PickerPolicy> policies;
  private final Function<String, TenantBudget> budgetObjects;
  private final TokenBudgets budgets;
  private final AtomicReference<Reconciler.Verdicts> desired = new AtomicReference<>();
  private final AtomicBoolean queued = new AtomicBoolean();
  private volatile boolean leader;

  StatusWriter(
      KubernetesClient client,
      String namespace,
      Clock clock,
      ScheduledExecutorService executor,
      Function<String, ModelRoute> routes,
      Function<String, PickerPolicy> policies) {
    this(client, namespace, clock, executor, routes, policies, name -> null, TokenBudgets.none());
  }

  StatusWriter(
      KubernetesClient client,
      String namespace,
      Clock clock,
      ScheduledExecutorService executor,
      Function<String, ModelRoute> routes,
      Function<String, PickerPolicy> policies,
      Function<String, TenantBudget> budgetObjects,
      TokenBudgets budgets) {
    this.budgetObjects = budgetObjects;
    this.budgets = budgets;
    this.client = client;
    this.namespace = namespace;
    this.clock = clock;
    this.executor = executor;
    this.routes = routes;
    this.policies = policies;
  }

  void publish(Reconciler.Verdicts verdicts) {
    desired.set(verdicts);
    schedule(0);
  }

  void leader(boolean leading) {
    this.leader = leading;
    if (leading) {
      schedule(0);
    }
  }

  boolean leader() {
    return leader;
  }

  private void schedule(long delayMillis) {
    if (queued.compareAndSet(false, true) && !executor.isShutdown()) {
      executor.schedule(this::flush, delayMillis, TimeUnit.MILLISECONDS);
    }
  }

  private void flush() {
    queued.set(false);
    Reconciler.Verdicts verdicts = desired.get();
    if (!leader || verdicts == null) {
      return;
    }
    boolean failed = false;
    failed |= writeAll(ModelRoute.class, verdicts.routes(), routes);
    failed |= writeAll(PickerPolicy.class, verdicts.policies(), policies);
    failed |= writeBudgets(verdicts, false);
    if (failed) {
      schedule(RETRY.toMillis());
    }
  }

  private <T extends CustomResource<?, AcceptanceStatus>> boolean writeAll(
      Class<T> type, Map<String, Verdict> verdicts, Function<String, T> lookup) {
    boolean failed = false;
    for (Map.Entry<String, Verdict> e : verdicts.entrySet()) {
      T current = lookup.apply(e.getKey());
      if (current == null
          || Objects2.generation(current) != e.getValue().generation()
          || says(current.getStatus(), e.getValue())) {
        continue;
      }
      try {
        write(type, current, e.getValue());
      } catch (KubernetesClientException ex) {
        failed = true;
        LOG.warn(
            "status of {} '{}' not written (will retry): {}",
            type.getSimpleName(),
            e.getKey(),
            ex.getMessage());
      }
    }
    return failed;
  }

  /** Rewrites accepted TenantBudgets' remaining figures where they changed (on the executor). */
  void refreshBudgets() {
    Reconciler.Verdicts verdicts = desired.get();
    if (leader && verdicts != null && !verdicts.accepted().isEmpty()) {
      writeBudgets(verdicts, true);
    }
  }

  private boolean writeBudgets(Reconciler.Verdicts verdicts, boolean refresh) {
    boolean failed = false;
    for (Map.Entry<String, Verdict> e : verdicts.budgets().entrySet()) {
      TenantBudget current = budgetObjects.apply(e.getKey());
      Verdict v = e.getValue();
      if (current == null || Objects2.generation(current) != v.generation()) {
        continue;
      }
      Budget budget = verdicts.accepted().get(e.getKey());
      long[] left = budget == null ? null : budgets.remaining(budget);
      Long tokens = left == null || left[0] < 0 ? null : left[0];
      Long requests = left == null || left[1] < 0 ? null : left[1];
      TenantBudgetStatus st = current.getStatus();
      AcceptanceStatus acceptance =
          st == null ? null : new AcceptanceStatus(st.observedGeneration(), st.conditions());
      boolean sameFigures =
          st != null
              && Objects.equals(st.remainingTokens(), tokens)
              && Objects.equals(st.remainingRequests(), requests);
      if (says(acceptance, v) && (!refresh || sameFigures)) {
        continue;
      }
      TenantBudget copy = client.getKubernetesSerialization().clone(current);
      copy.setStatus(
          new TenantBudgetStatus(
              v.generation(),
              List.of(condition(accepted(acceptance), v)),
              tokens,
              requests,
              DateTimeFormatter.ISO_INSTANT.format(
                  clock.instant().truncatedTo(ChronoUnit.SECONDS))));
      try {
        client.resources(TenantBudget.class).inNamespace(namespace).resource(copy).updateStatus();
      } catch (KubernetesClientException ex) {
        failed = true;
        LOG.warn(
            "status of TenantBudget '{}' not written (will retry): {}",
            e.getKey(),
            ex.getMessage());
      }
    }
    return failed;
  }

  private <T extends CustomResource<?, AcceptanceStatus>> void write(
      Class<T> type, T current, Verdict v) {
    T copy = client.getKubernetesSerialization().clone(current);
    copy.setStatus(
        new AcceptanceStatus(v.generation(), List.of(condition(accepted(current.getStatus()), v))));
    // A PUT of the whole status, guarded by the cached resourceVersion: a conflict means the
    // cache is behind, and the watch event that follows triggers another pass.
    client.resources(type).inNamespace(namespace).resource(copy).updateStatus();
  }

  private Condition condition(Condition previous, Verdict v) {
    String status = v.accepted() ? "True" : "False";
    String since =
        previous != null && status.equals(previous.getStatus())
            ? previous.getLastTransitionTime()
            : DateTimeFormatter.ISO_INSTANT.format(clock.instant().truncatedTo(ChronoUnit.SECONDS));
    return new ConditionBuilder()
        .withType(CONDITION)
        .withStatus(status)
        .withReason(v.reason())
        .withMessage(v.message())
        .withObservedGeneration(v.generation())
        .withLastTransitionTime(since)
        .build();
  }

  /** Whether the status already says what the verdict says. */
  static boolean says(AcceptanceStatus status, Verdict v) {
    Condition c = accepted(status);
    return c != null
        && status.observedGeneration() != null
        && status.observedGeneration() == v.generation()
        && (v.accepted() ? "True" : "False").equals(c.getStatus())
        && v.reason().equals(c.getReason())
        && v.message().equals(c.getMessage())
        && c.getObservedGeneration() != null
        && c.getObservedGeneration() == v.generation();
  }

  static Condition accepted(AcceptanceStatus status) {
    if (status == null || status.conditions() == null) {
      return null;
    }
    return status.conditions().stream()
        .filter(c -> CONDITION.equals(c.getType()))
        .findFirst()
        .orElse(null);
  }
}
