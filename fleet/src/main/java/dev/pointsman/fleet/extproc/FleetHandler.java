package dev.pointsman.fleet.extproc;

import dev.pointsman.extproc.Completion;
import dev.pointsman.extproc.ExtProcHandler;
import dev.pointsman.extproc.RequestHead;
import dev.pointsman.extproc.Responses;
import dev.pointsman.extproc.Verdict;
import dev.pointsman.fleet.choice.Choice;
import dev.pointsman.fleet.choice.Chooser;
import dev.pointsman.fleet.choice.Option;
import dev.pointsman.fleet.config.FleetConfig;
import dev.pointsman.fleet.routing.Cluster;
import dev.pointsman.fleet.routing.ClusterOptions;
import dev.pointsman.fleet.routing.PoolExports;
import dev.pointsman.fleet.summary.Received;
import dev.pointsman.fleet.telemetry.FleetMetrics;
import dev.pointsman.inference.error.OpenAiError;
import dev.pointsman.inference.request.ParsedRequest;
import dev.pointsman.picker.extproc.RouteVerdicts;
import dev.pointsman.picker.flowcontrol.TokenBudgets;
import dev.pointsman.picker.routing.FlowGate;
import dev.pointsman.picker.routing.FlowRefusals;
import dev.pointsman.picker.routing.Objectives;
import dev.pointsman.picker.summary.HotPrefixes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The fleet tier's decision: which cluster's gateway a request goes to, returned as the destination
 * header and {@code envoy.lb} metadata exactly as the picker returns a pod. Each routed request's
 * response status is fed back to its cluster's health: a 5xx, or a stream that failed before any
 * response, counts against it.
 *
 * <p>Tenants' budgets are enforced here, in front of every cluster: a request reserves its
 * estimated tokens (prompt plus output cap) and one request before a cluster is chosen, or is
 * refused with 429, {@code retry-after} and the {@code x-ratelimit-*} headers; it settles from the
 * usage its response reports, or gives the reservation back when no cluster answered it.
 */
public final class FleetHandler implements ExtProcHandler {
  /** The response header naming the cluster that served, for clients and tests. */
  public static final String CLUSTER_HEADER = "x-pointsman-cluster";

  /**
   * The request header listing the fallback clusters' gateways ({@code ip:port,ip:port}, best
   * first) where the data plane resends a request the chosen gateway refused before it started.
   * Absent when there is none. A routing header: the data plane strips a client's.
   */
  public static final String FALLBACKS_HEADER = "x-pointsman-fleet-fallbacks";

  /**
   * The request header naming the chosen cluster and its fallbacks as one route key ({@code
   * primary+fallback+…}, cluster names): the Envoy cluster an Envoy in front routes to with {@code
   * cluster_header}, an aggregate cluster of those clusters' gateways in that order.
   */
  public static final String ROUTE_HEADER = "x-pointsman-fleet-route";

  private final FleetConfig config;
  private final List<Cluster> clusters;
  private final Map<String, Cluster> byName = new HashMap<>();
  private final Chooser chooser;
  private final Objectives objectives;
  private final DoubleSupplier draws;
  private final LongSupplier nanoClock;
  private final FleetMetrics metrics;
  private final TokenBudgets budgets;
  private final Supplier<PoolExports> exports;

  public FleetHandler(
      FleetConfig config,
      List<Cluster> clusters,
      DoubleSupplier draws,
      LongSupplier nanoClock,
      FleetMetrics metrics) {
    this(config, clusters, draws, nanoClock, metrics, () -> PoolExports.NONE);
  }

  /**
   * A handler that places a request for an imported pool only on the clusters that export it.
   *
   * @param exports the latest InferencePoolImports read, asked once per request
   */
  public FleetHandler(
      FleetConfig config,
      List<Cluster> clusters,
      DoubleSupplier draws,
      LongSupplier nanoClock,
      FleetMetrics metrics,
      Supplier<PoolExports> exports) {
    this.config = Objects.requireNonNull(config, "config");
    this.clusters = List.copyOf(clusters);
    this.clusters.forEach(c -> byName.put(c.name(), c));
    this.chooser = new Chooser(config.spillAt(), config.fallbacks());
    this.objectives = new Objectives(config.objectives());
    this.draws = Objects.requireNonNull(draws, "draws");
    this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.budgets = config.tokenBudgets(nanoClock);
    this.exports = Objects.requireNonNull(exports, "exports");
  }

  /** The tenants' budgets this handler enforces: what the fleet tier's replicas share. */
  public TokenBudgets budgets() {
    return budgets;
  }

  @Override
  public Verdict decide(RequestHead head, ParsedRequest body) {
    double slo;
    double tpotSlo;
    try {
      slo = millis(config.sloHeader(), head, config.sloTtftMillis());
      tpotSlo =
          millis(
              config.tpotSloHeader(),
              head,
              config.sloTpotMillis() == null ? Double.NaN : config.sloTpotMillis());
    } catch (IllegalArgumentException e) {
      return new Verdict.Reject(
          new OpenAiError(400, e.getMessage(), "invalid_request_error", "invalid_slo_header"),
          "invalid_slo_header",
          0);
    }
    String tenant = FlowGate.tenant(head.header(config.fairnessHeader()));
    TokenBudgets.Admission admission =
        budgets.reserve(tenant, body.model(), FlowGate.estimatedTokens(body));
    if (!admission.admitted()) {
      return RouteVerdicts.reject(FlowRefusals.budget(tenant, admission.refusal()));
    }
    String region = config.region(head.header(config.regionHeader()));
    long[] chain = HotPrefixes.chain(body.model(), body.prompt());
    Choice choice =
        chooser.choose(
            ClusterOptions.of(
                clusters, body.model(), region, chain, nanoClock.getAsLong(), exports.get()),
            slo,
            tpotSlo,
            objectives.sheddable(head.objective()),
            draws.getAsDouble());
    return switch (choice) {
      case Choice.Chosen c -> forward(c, admission.reservation());
      case Choice.NoCluster n -> {
        budgets.release(admission.reservation());
        yield reject(n);
      }
    };
  }

  private Verdict forward(Choice.Chosen chosen, TokenBudgets.Reservation reservation) {
    Cluster cluster = byName.get(chosen.option().cluster());
    String gateway = cluster.config().gateway();
    Received summary = cluster.summary().get();
    if (summary != null) {
      summary.sent().incrementAndGet();
    }
    metrics.routed(cluster.name(), chosen.reason().label());
    List<Cluster> fallbacks = new ArrayList<>(chosen.fallbacks().size());
    StringJoiner gateways = new StringJoiner(",");
    StringJoiner route = new StringJoiner("+").add(cluster.name());
    for (Option o : chosen.fallbacks()) {
      Cluster f = byName.get(o.cluster());
      fallbacks.add(f);
      gateways.add(f.config().gateway());
      route.add(f.name());
    }
    Map<String, String> headers = new HashMap<>();
    headers.put(Responses.DESTINATION, gateway);
    headers.put(ROUTE_HEADER, route.toString());
    if (!fallbacks.isEmpty()) {
      headers.put(FALLBACKS_HEADER, gateways.toString());
    }
    return new Verdict.Forward(headers, gateway, new Outcome(cluster, fallbacks, reservation));
  }

  private static Verdict reject(Choice.NoCluster none) {
    if (none.sheddableOnly()) {
      return new Verdict.Reject(
          new OpenAiError(
              429,
              "sheddable request: only on-demand clusters can take it now, and sheddable traffic"
                  + " never goes there",
              "rate_limit_error",
              "sheddable_no_capacity"),
          "sheddable_no_capacity",
          1);
    }
    return new Verdict.Reject(
        new OpenAiError(
            503,
            "no cluster can take the request now (every cluster drained or without a ready"
                + " endpoint)",
            "service_unavailable",
            "no_cluster"),
        "no_cluster",
        1);
  }

  /** An objective header in milliseconds (as the picker reads it), or {@code otherwise}. */
  private static double millis(String name, RequestHead head, double otherwise) {
    double seconds = RouteVerdicts.sloSeconds(name, head.header(name));
    return Double.isNaN(seconds) ? otherwise : seconds * 1000;
  }

  /**
   * Feeds one request's outcome back to its clusters' health, and settles its budget. When the data
   * plane reports that a fallback served it, the chosen cluster refused it: a failure there, and
   * the answer counts for the fallback.
   */
  private final class Outcome implements Verdict.ResponseListener {
    private final Cluster cluster;
    private final List<Cluster> fallbacks;
    private final TokenBudgets.Reservation reservation;
    private volatile Cluster served;

    Outcome(Cluster cluster, List<Cluster> fallbacks, TokenBudgets.Reservation reservation) {
      this.cluster = cluster;
      this.fallbacks = fallbacks;
      this.reservation = reservation;
    }

    @Override
    public Map<String, String> onResponseHeaders(int status, String servedBy) {
      // the clusters tried in order; every one before the one that answered refused the request
      List<Cluster> tried = new ArrayList<>(fallbacks.size() + 1);
      tried.add(cluster);
      tried.addAll(fallbacks);
      int by = 0;
      for (int i = 1; i < tried.size(); i++) {
        if (tried.get(i).config().gateway().equals(servedBy)) {
          by = i;
        }
      }
      for (int i = 0; i < by; i++) {
        record(tried.get(i), true);
      }
      served = tried.get(by);
      if (by > 0) {
        metrics.fallback(served.name());
      }
      record(served, status >= 500 || status == 0);
      return Map.of(CLUSTER_HEADER, served.name());
    }

    @Override
    public void onEnd(Completion completion) {
      if (served == null && completion.end() == Completion.End.ERROR) {
        record(cluster, true);
      }
      if (served == null) {
        budgets.release(reservation); // no cluster answered: nothing was served
        return;
      }
      budgets.settle(reservation, completion.usage().tokens());
    }

    private void record(Cluster c, boolean failed) {
      if (failed) {
        metrics.upstreamError(c.name());
      }
      c.health().outcome(failed, nanoClock.getAsLong());
    }
  }

  @Override
  public String modelsJson() {
    return ModelList.json(clusters);
  }

  @Override
  public String modelJson(String id) {
    return ModelList.oneJson(clusters, id);
  }
}
