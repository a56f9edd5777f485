package dev.pointsman.body.router;

import dev.pointsman.config.AdminSection;
import dev.pointsman.config.ExtProcSection;
import dev.pointsman.config.GrpcSection;
import dev.pointsman.config.Yaml;
import dev.pointsman.extproc.BodyMode;
import dev.pointsman.extproc.ExtProcSettings;
import dev.pointsman.inference.model.ModelDiscovery;
import dev.pointsman.inference.model.ModelEntry;
import dev.pointsman.inference.model.ModelsConfig;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;

/**
 * The standalone body router's configuration file.
 *
 * @param grpc the ext_proc gRPC listener
 * @param admin the admin HTTP listener
 * @param extProc protocol settings (default: BUFFERED request bodies, no response bodies)
 * @param models served models, aliases and LoRA adapters, and their pools
 * @param defaultModel the model for requests that name none, or null
 * @param discovery pools whose {@code /v1/models} to poll for base models and adapters
 * @param discoveryIntervalSeconds how often to poll
 */
public record BodyRouterConfig(
    GrpcSection grpc,
    AdminSection admin,
    ExtProcSection extProc,
    List<ModelEntry> models,
    String defaultModel,
    List<DiscoveryEntry> discovery,
    Integer discoveryIntervalSeconds) {

  /** The body router buffers request bodies and does not look at responses, unless told. */
  public static final ExtProcSettings DEFAULT_SETTINGS =
      new ExtProcSettings(BodyMode.BUFFERED, BodyMode.NONE, 4L << 20, 62_000);

  public BodyRouterConfig {
    grpc = grpc == null ? GrpcSection.DEFAULTS : grpc;
    admin = admin == null ? AdminSection.DEFAULTS : admin;
    extProc = extProc == null ? ExtProcSection.DEFAULTS : extProc;
    models = models == null ? List.of() : List.copyOf(models);
    discovery = discovery == null ? List.of() : List.copyOf(discovery);
    discoveryIntervalSeconds = discoveryIntervalSeconds == null ? 30 : discoveryIntervalSeconds;
    if (models.isEmpty() && discovery.isEmpty()) {
      throw new IllegalArgumentException(
          "models: [] (expected at least one model, or a discovery source)");
    }
    if (discoveryIntervalSeconds < 1) {
      throw new IllegalArgumentException(
          "discoveryIntervalSeconds: " + discoveryIntervalSeconds + " (expected >= 1)");
    }
    new ModelsConfig(models, defaultModel);
    grpc.inboundLimit(extProc.toSettings(DEFAULT_SETTINGS)); // the limits agree
  }

  public static BodyRouterConfig load(Path file) {
    return Yaml.readFile(file, BodyRouterConfig.class);
  }

  public static BodyRouterConfig parse(String yaml) {
    return Yaml.read(yaml, BodyRouterConfig.class, null);
  }

  /** A copy whose listeners bind {@code host}. */
  public BodyRouterConfig withBind(String host) {
    return new BodyRouterConfig(
        grpc.withHost(host),
        admin.withHost(host),
        extProc,
        models,
        defaultModel,
        discovery,
        discoveryIntervalSeconds);
  }

  public ModelsConfig modelsConfig() {
    return new ModelsConfig(models, defaultModel);
  }

  public ExtProcSettings extProcSettings() {
    return extProc.toSettings(DEFAULT_SETTINGS);
  }

  public List<ModelDiscovery.Source> discoverySources() {
    return discovery.stream()
        .map(d -> new ModelDiscovery.Source(d.pool(), URI.create(d.url())))
        .toList();
  }

  /**
   * A pool to discover models from.
   *
   * @param pool the pool's name (as used in models' {@code pools})
   * @param url its {@code /v1/models} URL
   */
  public record DiscoveryEntry(String pool, String url) {
    public DiscoveryEntry {
      if (pool == null || pool.isBlank()) {
        throw new IllegalArgumentException("pool: '" + pool + "' (expected a pool name)");
      }
      new ModelDiscovery.Source(pool, URI.create(String.valueOf(url)));
    }
  }
}
