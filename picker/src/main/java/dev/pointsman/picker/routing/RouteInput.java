package dev.pointsman.picker.routing;

import dev.pointsman.body.request.ParsedRequest;
import java.util.Objects;
import java.util.Set;

/**
 * One request as the protocol layer hands it to routing.
 *
 * @param requestId the {@code x-request-id}
 * @param body what the body says
 * @param objective the {@code x-gateway-inference-objective} header, or null
 * @param subset the proxy's subset hint, or null
 */
public record RouteInput(
    String requestId, ParsedRequest body, String objective, Set<String> subset) {
  public RouteInput {
    Objects.requireNonNull(requestId, "requestId");
    Objects.requireNonNull(body, "body");
    subset = subset == null ? null : Set.copyOf(subset);
  }
}
