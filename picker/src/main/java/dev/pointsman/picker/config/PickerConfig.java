package dev.pointsman.picker.config;

import dev.pointsman.config.AdminSection;
import dev.pointsman.config.ExtProcSection;
import dev.pointsman.config.GrpcSection;
import dev.pointsman.config.Yaml;
import dev.pointsman.extproc.BodyMode;
import dev.pointsman.extproc.ExtProcSettings;
import dev.pointsman.inference.model.ModelEntry;
import dev.pointsman.inference.model.ModelsConfig;
import dev.pointsman.picker.extproc.PickerOptions;
import dev.pointsman.picker.routing.Objectives;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The picker's configuration file. Every section is optional; omitted values take production
 * defaults. In local mode the file lists the pools; in Kubernetes mode the cluster does, and the
 * file only sets the servers. Validation messages name the path of the bad value.
 *
 * @param grpc the ext_proc gRPC listener
 * @param admin the admin HTTP listener ({@code /metrics}, health, {@code /debug/decisions})
 * @param extProc protocol settings; must match the Envoy filter
 * @param scrape model-server metrics scraping
 * @param models served model names, aliases and LoRA adapters, and their pools
 * @param defaultModel the model used when a request names none, or null
 * @param pools the pools of model-server endpoints
 * @param objectives named inference objectives (priorities)
 * @param decisionLog how many recent decisions {@code /debug/decisions} keeps
 * @param protocol the data plane kind and the conformance test hooks
 * @param shutdown the not-ready grace period on SIGTERM
 * @param replication sharing state with the other picker replicas (off by default)
 * @param flowControl holding requests for saturated pools in the picker (off by default)
 * @param recording the traffic recorder (off by default)
 * @param shadow shadow mode (off by default)
 * @param summary the cluster summary for the fleet tier (off by default)
 * @param prefixIndex the approximate prefix index's total bound (by default from the heap)
 */
public record PickerConfig(
    GrpcSection grpc,
    AdminSection admin,
    ExtProcSection extProc,
    ScrapeSection scrape,
    List<ModelEntry> models,
    String defaultModel,
    List<PoolConfig> pools,
    List<Objectives.Objective> objectives,
    Integer decisionLog,
    ProtocolSection protocol,
    ShutdownSection shutdown,
    ReplicationSection replication,
    FlowControlSection flowControl,
    RecordingSection recording,
    ShadowSection shadow,
    SummarySection summary,
    PrefixIndexSection prefixIndex) {

  public PickerConfig {
    grpc = grpc == null ? GrpcSection.DEFAULTS : grpc;
    admin = admin == null ? AdminSection.DEFAULTS : admin;
    extProc = extProc == null ? ExtProcSection.DEFAULTS : extProc;
    scrape = scrape == null ? ScrapeSection.DEFAULTS : scrape;
    models = models == null ? List.of() : List.copyOf(models);
    objectives = objectives == null ? List.of() : List.copyOf(objectives);
    decisionLog = decisionLog == null ? 256 : decisionLog;
    protocol = protocol == null ? ProtocolSection.DEFAULTS : protocol;
    shutdown = shutdown == null ? ShutdownSection.DEFAULTS : shutdown;
    replication = replication == null ? ReplicationSection.DEFAULTS : replication;
    flowControl = flowControl == null ? FlowControlSection.DEFAULTS : flowControl;
    recording = recording == null ? RecordingSection.DEFAULTS : recording;
    shadow = shadow == null ? ShadowSection.DEFAULTS : shadow;
    summary = summary == null ? SummarySection.DEFAULTS : summary;
    prefixIndex = prefixIndex == null ? PrefixIndexSection.DEFAULTS : prefixIndex;
    pools = pools == null ? List.of() : List.copyOf(pools);
    Set<String> names = new HashSet<>();
    for (int i = 0; i < pools.size(); i++) {
      if (!names.add(pools.get(i).name())) {
        throw new IllegalArgumentException(
            "pools[" + i + "].name: '" + pools.get(i).name() + "' (already used by another pool)");
      }
    }
    grpc.inboundLimit(extProc.toSettings(ExtProcSettings.DEFAULTS)); // the limits agree
    if (decisionLog < 0 || decisionLog > 100_000) {
      throw new IllegalArgumentException("decisionLog: " + decisionLog + " (expected 0..100000)");
    }
    if (flowControl.enabled()
        && extProc.toSettings(ExtProcSettings.DEFAULTS).requestBodyMode()
            != BodyMode.FULL_DUPLEX_STREAMED) {
      // a buffered body's reply is subject to Envoy's message timeout: it cannot wait
      throw new IllegalArgumentException(
          "flowControl.enabled: true (expected extProc.requestBodyMode FULL_DUPLEX_STREAMED)");
    }
  }

  /** The configuration before flow control, the recorder and shadow mode, all off. */
  public PickerConfig(
      GrpcSection grpc,
      AdminSection admin,
      ExtProcSection extProc,
      ScrapeSection scrape,
      List<ModelEntry> models,
      String defaultModel,
      List<PoolConfig> pools,
      List<Objectives.Objective> objectives,
      Integer decisionLog,
      ProtocolSection protocol,
      ShutdownSection shutdown,
      ReplicationSection replication) {
    this(
        grpc,
        admin,
        extProc,
        scrape,
        models,
        defaultModel,
        pools,
        objectives,
        decisionLog,
        protocol,
        shutdown,
        replication,
        null,
        null,
        null,
        null,
        null);
  }

  /** Reads and validates a config file. */
  public static PickerConfig load(Path file) {
    return Yaml.readFile(file, PickerConfig.class);
  }

  /**
   * Reads and validates a config file, with {@code defaults} (YAML text) under it: keys the file
   * leaves out take the mode's defaults, e.g. {@code --kubernetes} binds {@code 0.0.0.0}.
   */
  public static PickerConfig load(Path file, String defaults) {
    return Yaml.readFile(file, defaults, PickerConfig.class);
  }

  /** Reads and validates YAML text. */
  public static PickerConfig parse(String yaml) {
    return Yaml.read(yaml, PickerConfig.class, null);
  }

  /**
   * The models section; when no models are listed, each pool serves the models named in its {@code
   * models} list.
   */
  public ModelsConfig modelsConfig() {
    if (!models.isEmpty()) {
      return new ModelsConfig(models, defaultModel);
    }
    return new ModelsConfig(PoolConfig.impliedModels(pools), defaultModel);
  }

  /** The ext_proc settings in force: the picker streams full-duplex unless told otherwise. */
  public ExtProcSettings extProcSettings() {
    return extProc.toSettings(ExtProcSettings.DEFAULTS);
  }

  /** How the ext_proc service speaks the Endpoint Picker Protocol. */
  public PickerOptions pickerOptions() {
    PickerOptions options = protocol.toOptions();
    return shadow.enabled() ? options.inShadow(shadow.balancerHeaderInUse()) : options;
  }

  public PoolConfig pool(String name) {
    return pools.stream()
        .filter(p -> p.name().equals(name))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "pool: '"
                        + name
                        + "' (expected one of "
                        + pools.stream().map(PoolConfig::name).toList()
                        + ")"));
  }
}
