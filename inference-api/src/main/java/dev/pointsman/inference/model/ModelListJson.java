package dev.pointsman.inference.model;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The OpenAI {@code /v1/models} list format: rendering ours, parsing a pool's. */
final class ModelListJson {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonFactory FACTORY = JSON.getFactory();

  private ModelListJson() {}

  /**
   * One entry of our listing: a served model or an alias of one.
   *
   * @param model the id, owner and parent (an alias has its model's parent)
   * @param root the base model it runs on: its own id for a base model, the base for an adapter or
   *     an alias
   */
  record Listed(ServedModel model, String root) {}

  static String render(List<Listed> models) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("object", "list");
      g.writeArrayFieldStart("data");
      for (Listed model : models) {
        write(g, model);
      }
      g.writeEndArray();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  /** One model object, as {@code GET /v1/models/{id}} answers it. */
  static String renderOne(Listed model) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      write(g, model);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private static void write(JsonGenerator g, Listed listed) throws IOException {
    ServedModel model = listed.model();
    g.writeStartObject();
    g.writeStringField("id", model.id());
    g.writeStringField("object", "model");
    g.writeNumberField("created", 0);
    g.writeStringField("owned_by", model.ownedBy());
    g.writeStringField("root", listed.root());
    g.writeStringField("parent", model.parent());
    g.writeEndObject();
  }

  /** Entries without a parent are the base model (the first) and its aliases; others adapters. */
  static DiscoveredModels parse(byte[] body) {
    JsonNode data;
    try {
      data = JSON.readTree(body).path("data");
    } catch (IOException e) {
      throw new IllegalArgumentException("models list: not valid JSON: " + e.getMessage(), e);
    }
    if (!data.isArray()) {
      throw new IllegalArgumentException("models list: no 'data' array (expected an OpenAI list)");
    }
    Set<String> bases = new LinkedHashSet<>();
    Set<String> adapters = new LinkedHashSet<>();
    for (int i = 0; i < data.size(); i++) {
      String id = data.get(i).path("id").textValue();
      if (id == null || id.isBlank()) {
        throw new IllegalArgumentException("models list: data[" + i + "].id missing");
      }
      String parent = data.get(i).path("parent").textValue();
      (parent == null || parent.equals(id) ? bases : adapters).add(id);
    }
    if (bases.isEmpty()) {
      throw new IllegalArgumentException(
          "models list: no base model (expected one without parent)");
    }
    String base = bases.iterator().next();
    bases.remove(base);
    return new DiscoveredModels(base, bases, adapters);
  }
}
