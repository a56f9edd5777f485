package dev.pointsman.fleet.k8s;

import dev.pointsman.fleet.routing.PoolExports;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the Gateway API Inference Extension's InferencePoolImports ({@code
 * inference.networking.x-k8s.io/v1alpha1}, namespaced, written by a multi-cluster controller) of
 * one namespace with a fabric8 informer, untyped, and publishes which clusters export each imported
 * pool ({@link PoolExports}).
 *
 * <p>Until the first complete list nothing is published ({@link PoolExports#NONE}: placement as
 * without imports). A failed list or watch (the CRD not installed, RBAC refusing, the API server
 * unreachable) is logged once per kind of failure, counted, and retried with fabric8's backoff; a
 * CRD installed later is picked up. After a complete list, a lost watch keeps what was read (as
 * every informer does) until fabric8 has listed again.
 *
 * <p>Thread-safe: the informer's thread publishes, request threads read {@link #exports()}.
 */
public final class PoolImportWatch implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PoolImportWatch.class);
  static final int MAX_UNKNOWN_LOGGED = 256;

  /** Why the imports cannot be read now; labels of the failure counter. */
  public enum Failure {
    CRD_MISSING,
    FORBIDDEN,
    UNREACHABLE,
    ERROR;

    public String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** Where the watch stands. */
  public enum State {
    /** Not listed yet, no failure yet. */
    STARTING,
    /** Listed, and the watch is live: placement follows the imports. */
    WATCHING,
    /** Listed once, the watch lost: placement follows the imports last read. */
    RECONNECTING,
    /** Never listed (a failure below): placement as without imports. */
    UNAVAILABLE
  }

  private final Supplier<KubernetesClient> clients;
  private final boolean ownsClient;
  private volatile KubernetesClient client;
  private volatile String namespace; // null until start() when it is the client's own
  private final Set<String> clusters;
  private final AtomicReference<Published> published =
      new AtomicReference<>(new Published(false, 0, PoolExports.NONE));
  private final Map<Failure, LongAdder> failures = new EnumMap<>(Failure.class);
  private final Set<String> unknownClusters = ConcurrentHashMap.newKeySet();
  private volatile SharedIndexInformer<GenericKubernetesResource> informer;
  private volatile boolean synced; // the first list is complete; published from then on
  private volatile Failure lastFailure;
  private volatile String lastMessage;
  private volatile Failure logged; // the failure last logged at WARN; cleared by a publish

  /**
   * @param client the API client (not closed by this watch)
   * @param namespace where the imports are read
   * @param clusters the fleet's cluster names; an import naming another is counted and logged once
   */
  public PoolImportWatch(KubernetesClient client, String namespace, Collection<String> clusters) {
    this(() -> client, false, Objects.requireNonNull(namespace, "namespace"), clusters);
  }

  private PoolImportWatch(
      Supplier<KubernetesClient> clients,
      boolean ownsClient,
      String namespace,
      Collection<String> clusters) {
    this.clients = clients;
    this.ownsClient = ownsClient;
    this.namespace = namespace;
    this.clusters = Set.copyOf(clusters);
    for (Failure f : Failure.values()) {
      failures.put(f, new LongAdder());
    }
  }

  /**
   * A watch with its own client, from kubeconfig or the in-cluster service account, made at {@link
   * #start()} (a client that cannot be made is a failure like the others); {@code namespace} null
   * for the client's own (else {@code default}).
   */
  public static PoolImportWatch connect(String namespace, Collection<String> clusters) {
    return new PoolImportWatch(
        () -> new KubernetesClientBuilder().build(), true, namespace, clusters);
  }

  /** Starts listing and watching; returns at once, never throws for the API's failures. */
  public PoolImportWatch start() {
    try {
      KubernetesClient c = Objects.requireNonNull(clients.get(), "client");
      client = c;
      if (namespace == null) {
        namespace = c.getNamespace() == null ? "default" : c.getNamespace();
      }
      SharedIndexInformer<GenericKubernetesResource> i =
          c.genericKubernetesResources(PoolImports.CONTEXT)
              .inNamespace(namespace)
              .runnableInformer(0);
      i.addEventHandler(new Publish());
      i.exceptionHandler(
          (started, t) -> {
            failed(t);
            return true; // fabric8 retries with its backoff
          });
      informer = i;
      i.start()
          .whenComplete(
              (ok, error) -> {
                if (error == null) {
                  synced = true;
                  publish();
                  LOG.info(
                      "InferencePoolImports read in namespace {}: {} import(s); placement follows"
                          + " them",
                      namespace,
                      imports());
                }
              });
    } catch (RuntimeException e) {
      failed(e);
    }
    return this;
  }

  /** The latest exports read; {@link PoolExports#NONE} until the first complete list. */
  public PoolExports exports() {
    return published.get().exports();
  }

  /** Where the watch stands now. */
  public State state() {
    SharedIndexInformer<GenericKubernetesResource> i = informer;
    if (published.get().listed()) { // not synced: "watching" only once the list is published
      return i != null && i.isWatching() ? State.WATCHING : State.RECONNECTING;
    }
    return lastFailure == null ? State.STARTING : State.UNAVAILABLE;
  }

  /** Failed lists and watches so far, of one kind. */
  public long failures(Failure kind) {
    return failures.get(kind).sum();
  }

  /** Imports read (those naming no exporting cluster included). */
  public int imports() {
    return published.get().imports();
  }

  /** Cluster names imports gave that the fleet has no cluster for, sorted. */
  public Set<String> unknownClusters() {
    return new TreeSet<>(unknownClusters);
  }

  /** What {@code /debug/pool-imports} shows. */
  public Map<String, Object> report() {
    Map<String, Object> out = new java.util.LinkedHashMap<>();
    out.put("namespace", namespace);
    out.put("state", state().name().toLowerCase(java.util.Locale.ROOT));
    out.put("lastFailure", lastFailure == null ? null : lastFailure.label());
    out.put("lastFailureMessage", lastMessage);
    Published now = published.get(); // one snapshot: the count and the exporters agree
    out.put("imports", now.imports());
    Map<String, Object> exported = new TreeMap<>();
    now.exports().exporters().forEach((pool, names) -> exported.put(pool, new TreeSet<>(names)));
    out.put("exporters", exported);
    out.put("unknownClusters", unknownClusters());
    Map<String, Long> counts = new TreeMap<>();
    failures.forEach((k, v) -> counts.put(k.label(), v.sum()));
    out.put("failures", counts);
    return out;
  }

  /**
   * Publishes the informer's cache, once the first list is complete; one writer at a time. It reads
   * the cache itself rather than the events: fabric8 completes the start before it has delivered
   * the listed objects to the handler, and the cache is filled first, so what is published at the
   * sync is the whole list, and every later event publishes the cache as it stands after it.
   */
  private synchronized void publish() {
    SharedIndexInformer<GenericKubernetesResource> i = informer;
    if (!synced || i == null) {
      return;
    }
    Map<String, Set<String>> read = new TreeMap<>(); // import -> exporters
    for (GenericKubernetesResource imported : i.getStore().list()) {
      String name = imported.getMetadata() == null ? null : imported.getMetadata().getName();
      if (name != null) {
        Set<String> exporters = PoolImports.exporters(imported);
        read.put(name, exporters);
        noteUnknown(name, exporters);
      }
    }
    published.set(new Published(true, read.size(), new PoolExports(read)));
    logged = null; // the API answered: the next failure is news
  }

  /** Counts and logs, once each, the exporting clusters the fleet has no cluster for. */
  private void noteUnknown(String imported, Set<String> exporters) {
    for (String cluster : exporters) {
      if (!clusters.contains(cluster)
          && unknownClusters.size() < MAX_UNKNOWN_LOGGED
          && unknownClusters.add(cluster)) {
        LOG.warn(
            "InferencePoolImport {}/{} names exporting cluster '{}', which is not among the"
                + " fleet's clusters {}: requests for its pool are not sent there (no gateway"
                + " address, no summary)",
            namespace,
            imported,
            cluster,
            new TreeSet<>(clusters));
      }
    }
  }

  private void failed(Throwable t) {
    Failure kind = PoolImports.classify(t);
    String message = String.valueOf(t.getMessage());
    lastMessage = message;
    lastFailure = kind; // before the count: whoever sees the count sees the state
    failures.get(kind).increment();
    if (kind != logged) {
      logged = kind;
      LOG.warn(
          "InferencePoolImports in namespace {} cannot be read ({}: {}); {}; retrying",
          namespace,
          kind.label(),
          message,
          synced
              ? "placement follows the imports last read"
              : "placement as without imports meanwhile");
    } else {
      LOG.debug("InferencePoolImports still cannot be read ({}): {}", kind.label(), message);
    }
  }

  @Override
  public void close() {
    SharedIndexInformer<GenericKubernetesResource> i = informer;
    if (i != null) {
      i.close();
    }
    KubernetesClient c = client;
    if (ownsClient && c != null) {
      c.close();
    }
  }

  /** Publishes the informer's cache on every change; never blocks. */
  private final class Publish implements ResourceEventHandler<GenericKubernetesResource> {
    @Override
    public void onAdd(GenericKubernetesResource obj) {
      publish();
    }

    @Override
    public void onUpdate(GenericKubernetesResource oldObj, GenericKubernetesResource newObj) {
      publish();
    }

    @Override
    public void onDelete(GenericKubernetesResource obj, boolean deletedFinalStateUnknown) {
      publish();
    }
  }

  /**
   * What one publish saw, read together: whether the first list is in it, the imports read and the
   * exports they give.
   */
  private record Published(boolean listed, int imports, PoolExports exports) {}
}
