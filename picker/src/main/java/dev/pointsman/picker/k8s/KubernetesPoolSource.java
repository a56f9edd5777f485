package dev.pointsman.picker.k8s;

import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.picker.datastore.Datastore;
import dev.pointsman.picker.flowcontrol.TokenBudgets;
import dev.pointsman.picker.k8s.api.InferencePool;
import dev.pointsman.picker.k8s.api.ModelRoute;
import dev.pointsman.picker.k8s.api.PickerPolicy;
import dev.pointsman.picker.k8s.api.TenantBudget;
import dev.pointsman.picker.routing.PolicyRegistry;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The picker's Kubernetes source: shared informers on InferencePools, Pods, ModelRoutes and
 * PickerPolicies of one namespace feed the datastore (membership), the policy registry (per-pool
 * policy) and the model resolver (ModelRoutes).
 *
 * <p>Informer handlers only mark the state dirty; one reconciler thread recomputes from the caches
 * and publishes what changed, so a burst of events costs one pass. Nothing is published before
 * every cache has synced, and {@link #ready()} stays false until then (and, when bound to one pool,
 * until that pool exists). fabric8's informers re-list and re-watch after API-server disconnects;
 * this class only keeps their error handler retrying. Status is written by the replica holding the
 * Lease {@link KubernetesSettings#leaseName()}; every replica serves.
 *
 * <p>RBAC: get/list/watch on pods, inferencepools, modelroutes, pickerpolicies and tenantbudgets;
 * get/update/patch on their status; get/create/update on leases — all in {@link
 * KubernetesSettings#namespace()}. See {@code deploy/rbac/picker-rbac.yaml} and the package's
 * {@code package-info}.
 */
public final class KubernetesPoolSource implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KubernetesPoolSource.class);

  private final KubernetesClient client;
  private final boolean ownsClient;
  private final KubernetesSettings settings;
  private final Datastore datastore;
  private final ScheduledExecutorService reconcileExecutor;
  private final ScheduledExecutorService statusExecutor;
  private final Reconciler reconciler;
  private final StatusWriter status;
  private final Leadership leadership;
  private final SharedIndexInformer<InferencePool> pools;
  private final SharedIndexInformer<Pod> pods;
  private final SharedIndexInformer<ModelRoute> routes;
  private final SharedIndexInformer<PickerPolicy> policies;
  private final SharedIndexInformer<TenantBudget> budgets; // null without flow control
  private final Duration budgetStatusEvery;
  private final AtomicBoolean queued = new AtomicBoolean();
  private volatile boolean synced;
  private volatile boolean reconciled;

  /**
   * @param client the API client (the source does not close it); build it through {@link
   *     UnknownFields#configure} so that objects written against a newer CRD are read
   * @param resolver replaced with a new resolver whenever ModelRoutes change
   */
  public KubernetesPoolSource(
      KubernetesClient client,
      KubernetesSettings settings,
      Datastore datastore,
      PolicyRegistry registry,
      AtomicReference<ModelResolver> resolver,
      Clock clock) {
    this(client, false, settings, datastore, registry, resolver, clock, null, Duration.ZERO);
  }

  /**
   * A source that also watches TenantBudgets (the CRD must be installed) and enforces the accepted
   * ones through {@code budgets}, whose remaining figures the status Lease holder writes into each
   * object's status every {@code budgetStatusEvery} where they changed.
   */
  public KubernetesPoolSource(
      KubernetesClient client,
      KubernetesSettings settings,
      Datastore datastore,
      PolicyRegistry registry,
      AtomicReference<ModelResolver> resolver,
      Clock clock,
      TokenBudgets budgets,
      Duration budgetStatusEvery) {
    this(
        client,
        false,
        settings,
        datastore,
        registry,
        resolver,
        clock,
        Objects.requireNonNull(budgets, "budgets"),
        budgetStatusEvery);
  }

  private KubernetesPoolSource(
      KubernetesClient client,
      boolean ownsClient,
      KubernetesSettings settings,
      Datastore datastore,
      PolicyRegistry registry,
      AtomicReference<ModelResolver> resolver,
      Clock clock,
      TokenBudgets tokenBudgets,
      Duration budgetStatusEvery) {
    this.client = Objects.requireNonNull(client, "client");
    this.budgetStatusEvery = budgetStatusEvery;
    this.ownsClient = ownsClient;
    this.settings = Objects.requireNonNull(settings, "settings");
    this.datastore = Objects.requireNonNull(datastore, "datastore");
    this.reconcileExecutor = Executors.newSingleThreadScheduledExecutor(daemon("pointsman-k8s"));
    this.statusExecutor = Executors.newSingleThreadScheduledExecutor(daemon("pointsman-status"));
    this.reconciler =
        new Reconciler(
            settings.boundPool(),
            datastore,
            registry,
            resolver,
            LOG::warn,
            tokenBudgets == null ? b -> {} : tokenBudgets::useClusterBudgets);
    String ns = settings.namespace();
    long resync = settings.resync().toMillis();
    this.budgets =
        tokenBudgets == null
            ? null
            : client.resources(TenantBudget.class).inNamespace(ns).runnableInformer(resync);
    this.pools = client.resources(InferencePool.class).inNamespace(ns).runnableInformer(resync);
    this.pods = client.pods().inNamespace(ns).runnableInformer(resync);
    this.routes = client.resources(ModelRoute.class).inNamespace(ns).runnableInformer(resync);
    this.policies = client.resources(PickerPolicy.class).inNamespace(ns).runnableInformer(resync);
    this.status =
        new StatusWriter(
            client,
            ns,
            clock,
            statusExecutor,
            name -> routes.getStore().getByKey(ns + "/" + name),
            name -> policies.getStore().getByKey(ns + "/" + name),
            name -> budgets == null ? null : budgets.getStore().getByKey(ns + "/" + name),
            tokenBudgets == null ? TokenBudgets.none() : tokenBudgets);
    this.leadership = new Leadership(client, settings, status::leader, statusExecutor);
  }

  /**
   * A source with its own client, configured from kubeconfig or the in-cluster service account,
   * reading tolerantly: unknown fields are skipped and recorded in {@code unknownFields}. With
   * {@code budgets} (flow control on; null otherwise) it also watches TenantBudgets and enforces
   * the accepted ones.
   */
  public static KubernetesPoolSource connect(
      KubernetesSettings settings,
      Datastore datastore,
      PolicyRegistry registry,
      AtomicReference<ModelResolver> resolver,
      UnknownFields unknownFields,
      TokenBudgets budgets) {
    KubernetesClient client = unknownFields.configure(new KubernetesClientBuilder()).build();
    return new KubernetesPoolSource(
        client,
        true,
        settings,
        datastore,
        registry,
        resolver,
        Clock.systemUTC(),
        budgets,
        BUDGET_STATUS_EVERY);
  }

  /** The namespace of the current kubeconfig context or service account, or {@code default}. */
  public static String defaultNamespace() {
    try (KubernetesClient c = new KubernetesClientBuilder().build()) {
      String ns = c.getNamespace();
      return ns == null ? "default" : ns;
    }
  }

  /** Starts the informers and the Lease candidacy; returns at once. */
  public KubernetesPoolSource start() {
    List<CompletableFuture<Void>> syncs = new ArrayList<>();
    for (SharedIndexInformer<? extends HasMetadata> informer : informers()) {
      informer.addEventHandler(new Trigger<>());
      informer.exceptionHandler(
          (started, t) -> {
            LOG.warn("watch failed, retrying: {}", t.toString());
            return true;
          });
      CompletableFuture<Void> sync = informer.start().toCompletableFuture();
      if (informer == budgets) {
        // not a condition of readiness: without the TenantBudget CRD (a cluster upgraded without
        // it) the picker serves with the file's budgets, and the failed watch is logged
        sync.whenComplete((ok, error) -> trigger());
      } else {
        syncs.add(sync);
      }
    }
    CompletableFuture.allOf(syncs.toArray(CompletableFuture[]::new))
        .whenComplete(
            (ok, error) -> {
              if (error == null) {
                synced = true;
                LOG.info("caches synced in namespace {}", settings.namespace());
                trigger();
              } else {
                LOG.error("informers stopped before syncing: {}", error.toString());
              }
            });
    leadership.start();
    if (budgets != null && budgetStatusEvery.isPositive()) {
      long every = budgetStatusEvery.toMillis();
      statusExecutor.scheduleWithFixedDelay(
          status::refreshBudgets, every, every, TimeUnit.MILLISECONDS);
    }
    return this;
  }

  /**
   * Ready once every cache has synced and been published; when bound to one pool, also once that
   * InferencePool exists.
   */
  public boolean ready() {
    if (!synced || !reconciled) {
      return false;
    }
    return settings.boundPool() == null || datastore.pool(settings.boundPool()).isPresent();
  }

  /** Whether this replica holds the status Lease. */
  public boolean leader() {
    return status.leader();
  }

  /** Whether every informer currently has a live watch (false while reconnecting). */
  boolean watching() {
    return informers().stream().allMatch(SharedIndexInformer::isWatching);
  }

  public KubernetesSettings settings() {
    return settings;
  }

  private List<SharedIndexInformer<? extends HasMetadata>> informers() {
    return budgets == null
        ? List.of(pools, pods, routes, policies)
        : List.of(pools, pods, routes, policies, budgets);
  }

  private void trigger() {
    if (queued.compareAndSet(false, true) && !reconcileExecutor.isShutdown()) {
      reconcileExecutor.execute(this::reconcile);
    }
  }

  private void reconcile() {
    queued.set(false);
    if (!synced) {
      return;
    }
    try {
      Reconciler.Inputs inputs =
          new Reconciler.Inputs(
              pools.getStore().list(),
              pods.getStore().list(),
              routes.getStore().list(),
              policies.getStore().list(),
              budgets == null ? List.of() : budgets.getStore().list());
      status.publish(reconciler.reconcile(inputs));
      reconciled = true;
    } catch (RuntimeException e) {
      LOG.error("reconcile failed; keeping the last published state", e);
    }
  }

  @Override
  public void close() {
    leadership.close();
    informers().forEach(SharedIndexInformer::close);
    reconcileExecutor.shutdownNow();
    statusExecutor.shutdownNow();
    if (ownsClient) {
      client.close();
    }
  }

  /** How often the Lease holder refreshes TenantBudgets' remaining figures in their status. */
  public static final Duration BUDGET_STATUS_EVERY = Duration.ofSeconds(30);

  private static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  /** Marks the state dirty on every event; never blocks. */
  private final class Trigger<T> implements ResourceEventHandler<T> {
    @Override
    public void onAdd(T obj) {
      trigger();
    }

    @Override
    public void onUpdate(T oldObj, T newObj) {
      trigger();
    }

    @Override
    public void onDelete(T obj, boolean deletedFinalStateUnknown) {
      trigger();
    }
  }
}
