package dev.pointsman.helm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Applies the patches Helm sends to an API server: a JSON merge patch (RFC 7386: objects merged,
 * {@code null} deletes, lists replaced) and, for built-in kinds, a Kubernetes strategic merge patch
 * as {@code CreateThreeWayMergePatch} writes it. A strategic patch differs from a merge patch in
 * lists merged by key (containers by name, ports by containerPort...): the patch carries only the
 * changed elements, {@code $setElementOrder/<field>} lists every key in its final order (its
 * elements name the key field), {@code $patch: delete} removes an element and {@code
 * $deleteFromPrimitiveList/<field>} removes primitives. {@code $patch: replace} replaces a map;
 * {@code $retainKeys} is ignored. The mock's own merge (Jackson's readerForUpdating) appends to
 * lists instead, so lists grew with every upgrade.
 */
final class StrategicMergePatch {
  private static final String ORDER = "$setElementOrder/";
  private static final String DELETE_PRIMITIVES = "$deleteFromPrimitiveList/";

  private StrategicMergePatch() {}

  /** {@code live} patched; {@code null} when the patch deletes it. Neither input is changed. */
  static JsonNode apply(JsonNode live, JsonNode patch) {
    if (!(patch instanceof ObjectNode p)) {
      return patch.deepCopy();
    }
    String directive = p.path("$patch").asText("");
    if (directive.equals("delete")) {
      return null;
    }
    if (directive.equals("replace")) {
      return withoutDirectives(p);
    }
    ObjectNode result =
        live instanceof ObjectNode l ? l.deepCopy() : JsonNodeFactory.instance.objectNode();
    for (Map.Entry<String, JsonNode> e : p.properties()) {
      String field = e.getKey();
      JsonNode value = e.getValue();
      if (field.startsWith(DELETE_PRIMITIVES)
          && result.get(field.substring(DELETE_PRIMITIVES.length())) instanceof ArrayNode list) {
        removeAll(list, value);
      }
      if (field.startsWith("$")) {
        continue;
      }
      JsonNode order = p.get(ORDER + field);
      JsonNode merged;
      if (value.isNull()) {
        merged = null;
      } else if (value.isObject()) {
        merged = apply(result.get(field), value);
      } else if (value.isArray() && order != null) {
        merged = mergeList(result.get(field), (ArrayNode) value, (ArrayNode) order);
      } else {
        merged = withoutDirectives(value);
      }
      if (merged == null) {
        result.remove(field);
      } else {
        result.set(field, merged);
      }
    }
    return result;
  }

  private static JsonNode mergeList(JsonNode live, ArrayNode patch, ArrayNode order) {
    ArrayNode result = JsonNodeFactory.instance.arrayNode();
    if (order.isEmpty() || !order.get(0).isObject()) {
      order.forEach(v -> result.add(v.deepCopy())); // primitives: the order is the list
      return result;
    }
    String key = order.get(0).fieldNames().next();
    Map<String, JsonNode> liveByKey = byKey(live, key);
    Map<String, JsonNode> patchByKey = byKey(patch, key);
    List<String> keys = new ArrayList<>();
    order.forEach(o -> keys.add(o.path(key).asText()));
    liveByKey.keySet().stream().filter(k -> !keys.contains(k)).forEach(keys::add);
    for (String k : keys) {
      JsonNode p = patchByKey.get(k);
      JsonNode merged = p == null ? liveByKey.get(k) : apply(liveByKey.get(k), p);
      if (merged != null) {
        result.add(merged);
      }
    }
    return result;
  }

  private static Map<String, JsonNode> byKey(JsonNode list, String key) {
    var byKey = new LinkedHashMap<String, JsonNode>();
    if (list != null) {
      list.forEach(e -> byKey.put(e.path(key).asText(), e));
    }
    return byKey;
  }

  private static void removeAll(ArrayNode list, JsonNode values) {
    for (int i = list.size() - 1; i >= 0; i--) {
      for (JsonNode v : values) {
        if (list.get(i).equals(v)) {
          list.remove(i);
          break;
        }
      }
    }
  }

  private static JsonNode withoutDirectives(JsonNode node) {
    JsonNode copy = node.deepCopy();
    strip(copy);
    return copy;
  }

  private static void strip(JsonNode node) {
    if (node instanceof ObjectNode object) {
      List<String> directives = new ArrayList<>();
      object
          .fieldNames()
          .forEachRemaining(
              n -> {
                if (n.startsWith("$")) {
                  directives.add(n);
                }
              });
      object.remove(directives);
    }
    node.forEach(StrategicMergePatch::strip);
  }
}
