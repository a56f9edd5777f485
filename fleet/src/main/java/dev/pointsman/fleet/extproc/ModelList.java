package dev.pointsman.fleet.extproc;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pointsman.fleet.routing.Cluster;
import dev.pointsman.fleet.summary.Received;
import dev.pointsman.inference.error.RejectReason;
import dev.pointsman.inference.error.RequestRejectedException;
import dev.pointsman.picker.summary.PoolSummary;
import java.util.List;
import java.util.TreeSet;

/** The OpenAI model listing of the fleet: every model some cluster's summary lists. */
final class ModelList {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ModelList() {}

  static String json(List<Cluster> clusters) {
    ObjectNode root = JSON.createObjectNode().put("object", "list");
    ArrayNode data = root.putArray("data");
    models(clusters).forEach(id -> data.add(model(id)));
    return root.toString();
  }

  static String oneJson(List<Cluster> clusters, String id) {
    if (!models(clusters).contains(id)) {
      throw new RequestRejectedException(
          RejectReason.UNKNOWN_MODEL, "The model '" + id + "' does not exist");
    }
    return model(id).toString();
  }

  private static ObjectNode model(String id) {
    return JSON.createObjectNode()
        .put("id", id)
        .put("object", "model")
        .put("created", 0)
        .put("owned_by", "pointsman");
  }

  private static TreeSet<String> models(List<Cluster> clusters) {
    TreeSet<String> out = new TreeSet<>();
    for (Cluster c : clusters) {
      Received r = c.summary().get();
      if (r != null) {
        r.summary().pools().stream().map(PoolSummary::models).forEach(out::addAll);
      }
    }
    return out;
  }
}
