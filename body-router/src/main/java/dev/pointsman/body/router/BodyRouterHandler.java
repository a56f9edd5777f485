package dev.pointsman.body.router;

import dev.pointsman.extproc.ExtProcHandler;
import dev.pointsman.extproc.RequestHead;
import dev.pointsman.extproc.Verdict;
import dev.pointsman.inference.model.ModelResolver;
import dev.pointsman.inference.model.Resolution;
import dev.pointsman.inference.request.ParsedRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The body-based router's decision: resolve the body's model and set {@code x-gateway-model-name}
 * (the model as requested, or the default) and {@code x-gateway-base-model-name} (its base model)
 * so the gateway's HTTPRoutes can match on them. Unknown or missing models are refused with the
 * resolver's 404/400.
 */
final class BodyRouterHandler implements ExtProcHandler {
  static final String MODEL_HEADER = "x-gateway-model-name";
  static final String BASE_MODEL_HEADER = "x-gateway-base-model-name";

  private final Supplier<ModelResolver> resolver;
  private final BodyRouterMetrics metrics;

  BodyRouterHandler(Supplier<ModelResolver> resolver, BodyRouterMetrics metrics) {
    this.resolver = resolver;
    this.metrics = metrics;
  }

  @Override
  public Verdict decide(RequestHead head, ParsedRequest body) {
    Resolution r = resolver.get().resolve(body.model());
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(MODEL_HEADER, r.requestedModel() == null ? r.canonicalModel() : r.requestedModel());
    headers.put(BASE_MODEL_HEADER, r.baseModel());
    if (head.requestIdGenerated()) {
      headers.put("x-request-id", head.requestId());
    }
    metrics.routed(r.canonicalModel());
    return new Verdict.Forward(headers, null, Verdict.ResponseListener.NONE);
  }

  @Override
  public String modelsJson() {
    return resolver.get().modelsListJson();
  }

  @Override
  public String modelJson(String id) {
    return resolver.get().modelJson(id);
  }
}
