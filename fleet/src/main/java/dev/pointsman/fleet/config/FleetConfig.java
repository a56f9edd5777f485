package dev.pointsman.fleet.config;

import dev.pointsman.config.AdminSection;
import dev.pointsman.config.ExtProcSection;
import dev.pointsman.config.GrpcSection;
import dev.pointsman.config.Yaml;
import dev.pointsman.extproc.ExtProcSettings;
import dev.pointsman.fleet.choice.Chooser;
import dev.pointsman.picker.config.FlowControlSection;
import dev.pointsman.picker.config.ReplicationSection;
import dev.pointsman.picker.extproc.FlowHeaders;
import dev.pointsman.picker.flowcontrol.TokenBudgets;
import dev.pointsman.picker.routing.Objectives;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The fleet tier's configuration file ({@code pointsman fleet --config FILE}); see docs/fleet.md.
 * Errors name the path of the bad value.
 *
 * @param grpc the ext_proc listener (as every role's)
 * @param admin the admin listener ({@code /metrics}, health, {@code /debug/clusters})
 * @param extProc protocol settings; must match the Envoy filter in front
 * @param regions the client regions, each with a round trip to every cluster
 * @param regionHeader the request header naming the client's region (default {@code
 *     x-pointsman-region})
 * @param defaultRegion the region of a request without the header or with an unknown one (default:
 *     the first of {@code regions})
 * @param sloTtftMillis the time-to-first-token objective of a request that states none (default
 *     2000)
 * @param sloHeader the request header stating a request's own objective in milliseconds (default
 *     {@code x-slo-ttft-ms})
 * @param spillAt the fraction of the objective a cheaper cluster's prediction may reach before
 *     traffic spills to a dearer one (default 0.8)
 * @param objectives named objectives and their priorities, as the picker's: a negative priority is
 *     sheddable, and sheddable traffic never goes to an on-demand cluster
 * @param summaries how summaries are read (mutual TLS)
 * @param failover draining and recovery
 * @param clusters the clusters
 * @param fairnessHeader the request header naming the tenant (default {@code
 *     x-gateway-inference-fairness-id}, as the picker's)
 * @param budgets tenants' token and request budgets per minute, enforced here for the whole fleet
 *     (every cluster), as the picker's {@code flowControl.budgets}; none by default
 * @param sloTpotMillis the time-per-output-token objective of a request that states none; absent:
 *     none (clusters are then chosen on time to first token alone)
 * @param tpotSloHeader the request header stating a request's own TPOT objective in milliseconds
 *     (default {@code x-slo-tpot-ms}, as the picker's)
 * @param replication how the fleet tier's replicas share the budgets' use: the picker's {@code
 *     replication} section (an embedded JGroups cluster), with a cluster name of its own; off by
 *     default (each replica then enforces its own admissions)
 * @param fallbacks how many further clusters each placed request names, best first, for the data
 *     plane to resend it to when the chosen cluster's gateway refuses it before it started (default
 *     1; 0 for none, at most {@value Chooser#MAX_FALLBACKS})
 * @param poolImports whether and where InferencePoolImports are read (default: not read)
 */
public record FleetConfig(
    GrpcSection grpc,
    AdminSection admin,
    ExtProcSection extProc,
    List<String> regions,
    String regionHeader,
    String defaultRegion,
    Integer sloTtftMillis,
    String sloHeader,
    Double spillAt,
    List<Objectives.Objective> objectives,
    SummariesSection summaries,
    FailoverSection failover,
    List<ClusterConfig> clusters,
    String fairnessHeader,
    List<FlowControlSection.BudgetEntry> budgets,
    Integer sloTpotMillis,
    String tpotSloHeader,
    ReplicationSection replication,
    Integer fallbacks,
    PoolImportsSection poolImports) {

  public FleetConfig {
    grpc = grpc == null ? GrpcSection.DEFAULTS : grpc;
    admin = admin == null ? AdminSection.DEFAULTS : admin;
    extProc = extProc == null ? ExtProcSection.DEFAULTS : extProc;
    regions = regions == null ? List.of() : List.copyOf(regions);
    if (regions.isEmpty() || regions.stream().anyMatch(String::isBlank)) {
      throw new IllegalArgumentException(
          "regions: " + regions + " (expected the client regions, at least one)");
    }
    regionHeader = header("regionHeader", regionHeader, "x-pointsman-region");
    defaultRegion = defaultRegion == null ? regions.getFirst() : defaultRegion;
    if (!regions.contains(defaultRegion)) {
      throw new IllegalArgumentException(
          "defaultRegion: '" + defaultRegion + "' (expected one of " + regions + ")");
    }
    sloTtftMillis = sloTtftMillis == null ? 2000 : sloTtftMillis;
    if (sloTtftMillis < 1 || sloTtftMillis > 3_600_000) {
      throw new IllegalArgumentException(
          "sloTtftMillis: " + sloTtftMillis + " (expected 1..3600000)");
    }
    sloHeader = header("sloHeader", sloHeader, "x-slo-ttft-ms");
    spillAt = spillAt == null ? 0.8 : spillAt;
    if (!(spillAt > 0 && spillAt <= 1)) {
      throw new IllegalArgumentException("spillAt: " + spillAt + " (expected in (0, 1])");
    }
    objectives = objectives == null ? List.of() : List.copyOf(objectives);
    if (summaries == null) {
      throw new IllegalArgumentException(
          "summaries: missing (expected certChain, privateKey and caFile for mutual TLS)");
    }
    failover = failover == null ? FailoverSection.DEFAULTS : failover;
    clusters = clusters == null ? List.of() : List.copyOf(clusters);
    checkClusters(clusters, regions);
    extProc.toSettings(ExtProcSettings.DEFAULTS);
    fairnessHeader = header("fairnessHeader", fairnessHeader, FlowHeaders.DEFAULT_FAIRNESS);
    budgets = budgets == null ? List.of() : List.copyOf(budgets);
    FlowControlSection.tokenBudgets(budgets, () -> 0L); // no tenant and model twice
    if (sloTpotMillis != null && (sloTpotMillis < 1 || sloTpotMillis > 60_000)) {
      throw new IllegalArgumentException(
          "sloTpotMillis: " + sloTpotMillis + " (expected 1..60000, or leave it out)");
    }
    tpotSloHeader = header("tpotSloHeader", tpotSloHeader, "x-slo-tpot-ms");
    replication = replication == null ? ReplicationSection.DEFAULTS : replication;
    if (replication.enabled() && replication.cluster().equals(PICKER_CLUSTER)) {
      throw new IllegalArgumentException(
          "replication.cluster: '"
              + PICKER_CLUSTER
              + "' is the pickers' (expected the fleet tier's own, e.g. pointsman-fleet)");
    }
    fallbacks = fallbacks == null ? 1 : fallbacks;
    if (fallbacks < 0 || fallbacks > Chooser.MAX_FALLBACKS) {
      throw new IllegalArgumentException(
          "fallbacks: " + fallbacks + " (expected 0.." + Chooser.MAX_FALLBACKS + ")");
    }
    poolImports = poolImports == null ? PoolImportsSection.DEFAULTS : poolImports;
  }

  /** The pickers' default replication cluster name, which the fleet tier must not join. */
  private static final String PICKER_CLUSTER = ReplicationSection.DEFAULTS.cluster();

  private static void checkClusters(List<ClusterConfig> clusters, List<String> regions) {
    if (clusters.isEmpty()) {
      throw new IllegalArgumentException("clusters: [] (expected at least one cluster)");
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < clusters.size(); i++) {
      ClusterConfig c = clusters.get(i);
      if (!names.add(c.name())) {
        throw new IllegalArgumentException(
            "clusters[" + i + "].name: '" + c.name() + "' (already used by another cluster)");
      }
      for (String region : regions) {
        if (!c.rttMillis().containsKey(region)) {
          throw new IllegalArgumentException(
              "clusters["
                  + i
                  + "].rttMillis: no '"
                  + region
                  + "' (expected a round trip from every region in "
                  + regions
                  + ")");
        }
      }
    }
  }

  private static String header(String key, String value, String fallback) {
    String h = value == null ? fallback : value.trim().toLowerCase(Locale.ROOT);
    if (!h.matches("[a-z0-9!#$%&'*+.^_`|~-]+")) {
      throw new IllegalArgumentException(key + ": '" + value + "' (expected a header name)");
    }
    return h;
  }

  /** Reads and validates a config file. */
  public static FleetConfig load(Path file) {
    return Yaml.readFile(file, FleetConfig.class);
  }

  /** Reads and validates YAML text. */
  public static FleetConfig parse(String yaml) {
    return Yaml.read(yaml, FleetConfig.class, null);
  }

  /** The ext_proc settings in force. */
  public ExtProcSettings extProcSettings() {
    return extProc.toSettings(ExtProcSettings.DEFAULTS);
  }

  /** This config with {@code replication.bindAddress} set to {@code address}. */
  public FleetConfig withReplicationBind(String address) {
    return new FleetConfig(
        grpc,
        admin,
        extProc,
        regions,
        regionHeader,
        defaultRegion,
        sloTtftMillis,
        sloHeader,
        spillAt,
        objectives,
        summaries,
        failover,
        clusters,
        fairnessHeader,
        budgets,
        sloTpotMillis,
        tpotSloHeader,
        replication.withBindAddress(address),
        fallbacks,
        poolImports);
  }

  /** The tenants' budgets, on the given clock. */
  public TokenBudgets tokenBudgets(LongSupplier nanos) {
    return FlowControlSection.tokenBudgets(budgets, nanos);
  }

  /** The region a request header names: itself when configured, else {@code defaultRegion}. */
  public String region(String header) {
    return header != null && regions.contains(header.trim()) ? header.trim() : defaultRegion;
  }
}
