package dev.pointsman.inference.model;

import dev.pointsman.inference.error.RejectReason;
import dev.pointsman.inference.error.RequestRejectedException;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Resolves a requested model id to its canonical model, base model, adapter and pools. Immutable
 * and thread-safe: discovery produces a new resolver to publish.
 */
public final class ModelResolver {
  static final int MAX_LISTED = 50;
  static final String OWNER = "pointsman";

  private final ModelsConfig config;
  private final SortedMap<String, DiscoveredModels> discovered;
  private final Map<String, Route> routes;
  private final List<ServedModel> served;
  private final Map<String, ModelListJson.Listed> listed;

  private ModelResolver(ModelsConfig config, SortedMap<String, DiscoveredModels> discovered) {
    this.config = config;
    this.discovered = Collections.unmodifiableSortedMap(discovered);
    this.routes = RouteTable.build(config, this.discovered);
    this.served =
        routes.entrySet().stream()
            .filter(e -> e.getKey().equals(e.getValue().canonicalModel()))
            .map(e -> new ServedModel(e.getKey(), OWNER, parentOf(e.getValue())))
            .sorted(Comparator.comparing(ServedModel::id))
            .toList();
    TreeMap<String, ModelListJson.Listed> all = new TreeMap<>();
    routes.forEach(
        (id, route) ->
            all.put(
                id,
                new ModelListJson.Listed(
                    new ServedModel(id, OWNER, parentOf(route)), route.baseModel())));
    this.listed = Collections.unmodifiableSortedMap(all);
  }

  /** A resolver of the configured models only. */
  public static ModelResolver of(ModelsConfig config) {
    return new ModelResolver(Objects.requireNonNull(config, "config"), new TreeMap<>());
  }

  /** A resolver that also knows what {@code pool} reported, replacing its previous report. */
  public ModelResolver withDiscovered(String pool, String baseModel, Set<String> adapters) {
    return withDiscovered(pool, DiscoveredModels.of(baseModel, adapters));
  }

  /** A resolver that also knows what {@code pool} reported, replacing its previous report. */
  public ModelResolver withDiscovered(String pool, DiscoveredModels models) {
    PoolTarget.of(pool);
    TreeMap<String, DiscoveredModels> next = new TreeMap<>(discovered);
    next.put(pool, Objects.requireNonNull(models, "models"));
    return new ModelResolver(config, next);
  }

  /** A resolver that forgets what {@code pool} reported. */
  public ModelResolver withoutPool(String pool) {
    TreeMap<String, DiscoveredModels> next = new TreeMap<>(discovered);
    next.remove(pool);
    return new ModelResolver(config, next);
  }

  /**
   * Resolves a model id; null or blank means the default model.
   *
   * @throws RequestRejectedException 400 {@code missing_model} without a default, 404 {@code
   *     model_not_found} for an unknown id
   */
  public Resolution resolve(String requestedModel) {
    String id = Names.isBlank(requestedModel) ? config.defaultModel() : requestedModel;
    if (id == null) {
      throw new RequestRejectedException(RejectReason.MISSING_MODEL, "model is required");
    }
    Route route = routes.get(id);
    if (route == null) {
      throw new RequestRejectedException(RejectReason.UNKNOWN_MODEL, notFound(id));
    }
    return route.resolution(requestedModel);
  }

  /** The served models, sorted by id: canonical names, aliases excluded. */
  public List<ServedModel> servedModels() {
    return served;
  }

  /**
   * The OpenAI {@code /v1/models} response body: every id a request may name, sorted, the {@link
   * #servedModels()} and their aliases (an alias with its model's {@code root} and {@code parent}),
   * so that a client checking the listing finds the name it was told to use.
   */
  public String modelsListJson() {
    return ModelListJson.render(List.copyOf(listed.values()));
  }

  /**
   * The OpenAI {@code /v1/models/{id}} response body for a served model or an alias.
   *
   * @throws RequestRejectedException 404 {@code model_not_found} for any other id
   */
  public String modelJson(String id) {
    ModelListJson.Listed model = listed.get(id);
    if (model == null) {
      throw new RequestRejectedException(RejectReason.UNKNOWN_MODEL, notFound(id));
    }
    return ModelListJson.renderOne(model);
  }

  private String notFound(String id) {
    StringBuilder message =
        new StringBuilder("The model ").append(Names.quote(id)).append(" does not exist. ");
    if (served.isEmpty()) {
      return message.append("No models are served.").toString();
    }
    message.append("Served models: ");
    int shown = Math.min(MAX_LISTED, served.size());
    for (int i = 0; i < shown; i++) {
      message.append(i == 0 ? "" : ", ").append(served.get(i).id());
    }
    if (served.size() > shown) {
      message.append(", ... (").append(served.size() - shown).append(" more)");
    }
    return message.toString();
  }

  private static String parentOf(Route route) {
    return route.adapter() == null ? null : route.baseModel();
  }
}
