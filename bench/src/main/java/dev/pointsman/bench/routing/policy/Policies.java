package dev.pointsman.bench.routing.policy;

import dev.pointsman.config.Yaml;
import dev.pointsman.picker.scheduling.PluginSpec;
import dev.pointsman.picker.scheduling.Plugins;
import dev.pointsman.picker.scheduling.PolicyConfig;
import dev.pointsman.picker.scheduling.SchedulingPolicy;
import dev.pointsman.picker.scheduling.WeightedScorer;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import dev.pointsman.picker.scheduling.prior.SpeedPriors;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

/** Every policy of the benchmark, by name. */
public final class Policies {
  /** Every policy, in report order. */
  public static final List<String> ALL =
      List.of(
          "random",
          "round-robin",
          "weighted-round-robin",
          "least-request",
          "weighted-least-request",
          "queue-only",
          "kv-only",
          "prefix-only",
          "gie-default",
          "sglang-cache-aware",
          "sglang-least-load",
          "dynamo-kv",
          "pointsman",
          "greedy-lookahead");

  /**
   * Variants run only when named ({@code --policies}): {@code pointsman-kv-events}, the default
   * with the precise prefix index fed by the engines' KV events ({@link PreciseIndexPolicy}).
   */
  public static final List<String> VARIANTS = List.of(PreciseIndexPolicy.NAME);

  /**
   * The policies of the standard run ({@code --scenario} without {@code --policies}): what an
   * operator would run instead, round-robin as the floor, pointsman and the look-ahead reference.
   */
  public static final List<String> STANDARD = ALL.stream().filter(p -> !ablation(p)).toList();

  /** Random choice and the single-scorer schedulers: {@code --suite ablations}. */
  public static final List<String> ABLATIONS = ALL.stream().filter(Policies::ablation).toList();

  /**
   * The llm-d router's default scorers and weights (the Gateway API Inference Extension's default
   * profile: queue 2, KV-cache utilization 2, prefix cache 3, max-score picker).
   */
  static final List<PluginSpec> GIE_DEFAULT_SCORERS =
      List.of(
          PluginSpec.of("queue-scorer", 2),
          PluginSpec.of("kv-cache-utilization-scorer", 2),
          PluginSpec.of("prefix-cache-scorer", 3));

  /**
   * The GIE prefix plugin's defaults: 64-character blocks, the first 256 of a prompt matched (its
   * {@code blockSize} and {@code maxPrefixBlocksToMatch}). The baselines that hash prompt text
   * ({@code gie-default}, {@code sglang-cache-aware}) keep them; the picker hashes whole prompts
   * ({@link PrefixHasher#DEFAULT}).
   */
  static final PrefixHasher GIE_PREFIX_HASHER = new PrefixHasher(64, 256);

  /**
   * SGLang cache-aware thresholds, the SGLang model gateway's defaults ({@code --cache-threshold}
   * 0.3, {@code --balance-abs-threshold} 64, {@code --balance-rel-threshold} 1.5; its
   * load-balancing docs).
   */
  public static final double SGLANG_CACHE_THRESHOLD = 0.3;

  public static final int SGLANG_BALANCE_ABS = 64;
  public static final double SGLANG_BALANCE_REL = 1.5;

  private Policies() {}

  private static boolean ablation(String name) {
    return name.equals("random") || name.endsWith("-only");
  }

  /** A fresh instance of {@code name} for one run over {@code fleet}. */
  public static RoutingPolicy create(String name, FleetView fleet, RandomGenerator random) {
    return create(name, fleet, random, Map.of());
  }

  /**
   * A fresh instance of {@code name} for one run over {@code fleet}, where {@code custom} names
   * operator-written policies run by the production scheduler like {@code pointsman}.
   */
  public static RoutingPolicy create(
      String name, FleetView fleet, RandomGenerator random, Map<String, PolicyConfig> custom) {
    PolicyConfig own = custom.get(name);
    if (own != null) {
      return new SchedulerPolicy(name, Plugins.build(own), fleet, random);
    }
    SpeedPriors mismatched = MismatchPriors.priors(name);
    if (mismatched != null) {
      return new SchedulerPolicy(
          name, Plugins.build(PolicyConfig.defaults()), fleet, random, mismatched);
    }
    return switch (name) {
      case "random" -> SimplePolicies.random(fleet, random);
      case "round-robin" -> SimplePolicies.roundRobin(fleet);
      case "weighted-round-robin" -> EnvoyWeighted.roundRobin(fleet);
      case "least-request" -> SimplePolicies.leastRequest(fleet, random);
      case "weighted-least-request" -> EnvoyWeighted.leastRequest(fleet, random);
      case "queue-only" -> scorers(name, fleet, random, PluginSpec.of("queue-scorer", 1));
      case "kv-only" ->
          scorers(name, fleet, random, PluginSpec.of("kv-cache-utilization-scorer", 1));
      case "prefix-only" -> scorers(name, fleet, random, PluginSpec.of("prefix-cache-scorer", 1));
      case "gie-default" -> gieDefault(fleet, random);
      case "sglang-cache-aware" ->
          new SglangCacheAware(
              fleet, random, SGLANG_CACHE_THRESHOLD, SGLANG_BALANCE_ABS, SGLANG_BALANCE_REL);
      case "sglang-least-load" -> new SglangLeastLoad(fleet, random);
      case "dynamo-kv" -> new DynamoKv(fleet, random);
      case "pointsman" ->
          new SchedulerPolicy(name, Plugins.build(PolicyConfig.defaults()), fleet, random);
      case "greedy-lookahead" -> new GreedyLookahead(fleet, random);
      case PreciseIndexPolicy.NAME -> new PreciseIndexPolicy(fleet, random);
      default -> throw new IllegalArgumentException(unknown(name));
    };
  }

  /** Checks policy names, for the command line. */
  public static List<String> validate(List<String> names) {
    for (String n : names) {
      if (!ALL.contains(n) && !VARIANTS.contains(n) && !MismatchPriors.NAMES.contains(n)) {
        throw new IllegalArgumentException(unknown(n));
      }
    }
    return List.copyOf(names);
  }

  /**
   * Reads an operator's policy (the {@code policy:} section of a picker pool, or the fields of a
   * policy CRD's spec) from YAML, validated as the picker validates it.
   */
  public static PolicyConfig readCustom(String name, Path file) {
    if (ALL.contains(name) || VARIANTS.contains(name) || MismatchPriors.NAMES.contains(name)) {
      throw new IllegalArgumentException(
          "--policy-file: '" + name + "' is a shipped policy's name; choose another");
    }
    if (!name.matches("[a-z0-9][a-z0-9-]*")) {
      throw new IllegalArgumentException(
          "--policy-file: '" + name + "' (expected a kebab-case name)");
    }
    PolicyConfig config = Yaml.readFile(file, PolicyConfig.class);
    try {
      Plugins.build(config);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "--policy-file " + name + "=" + file + ": " + e.getMessage(), e);
    }
    return config;
  }

  private static String unknown(String name) {
    return "--policies: '" + name + "' (expected some of " + ALL + ")";
  }

  private static RoutingPolicy scorers(
      String name, FleetView fleet, RandomGenerator random, PluginSpec... specs) {
    return new SchedulerPolicy(name, blend(List.of(specs)), fleet, random);
  }

  private static SchedulingPolicy blend(List<PluginSpec> specs) {
    return Plugins.build(
        new PolicyConfig(List.of(), specs, PluginSpec.of("max-score-picker"), 0, null));
  }

  /**
   * {@code gie-default}: the llm-d router's default blend, with its LoRA-affinity scorer (weight 1,
   * scored as GIE scores it: {@link GieLoraAffinity}) where clients name adapters.
   */
  static RoutingPolicy gieDefault(FleetView fleet, RandomGenerator random) {
    return new SchedulerPolicy(
        "gie-default",
        gieDefault(!fleet.requests().adapters().isEmpty()),
        fleet,
        random,
        SpeedPriors.builtIn(),
        GIE_PREFIX_HASHER,
        PrefixIndex.Forgetting.HEAD_FIRST,
        PrefixIndex.Checkpoints.EVERY_BLOCK);
  }

  /** The llm-d default blend, with GIE's LoRA-affinity scorer when {@code adapters}. */
  static SchedulingPolicy gieDefault(boolean adapters) {
    SchedulingPolicy base = blend(GIE_DEFAULT_SCORERS);
    if (!adapters) {
      return base;
    }
    List<WeightedScorer> scorers = new java.util.ArrayList<>(base.scorers());
    scorers.add(new WeightedScorer(new GieLoraAffinity(), GieLoraAffinity.WEIGHT));
    return new SchedulingPolicy(
        base.filters(), scorers, base.picker(), base.fallbacks(), base.saturation());
  }
}
