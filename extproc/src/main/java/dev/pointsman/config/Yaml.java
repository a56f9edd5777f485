package dev.pointsman.config;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads configuration records from YAML. Every failure becomes an {@link IllegalArgumentException}
 * whose message names the path of the bad value, e.g. {@code pools[1].endpoints[0].address: ...}.
 */
public final class Yaml {
  private static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory())
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private Yaml() {}

  /** The shared mapper (thread-safe once configured). */
  public static ObjectMapper mapper() {
    return YAML;
  }

  /**
   * Parses {@code yaml} into {@code type}. {@code what} names the document (a file name) in front
   * of every message, or is null for messages that start with the path.
   */
  public static <T> T read(String yaml, Class<T> type, String what) {
    String prefix = what == null ? "" : what + ": ";
    try {
      T value = YAML.readValue(yaml, type);
      if (value == null) {
        throw new IllegalArgumentException(prefix + "empty (expected a YAML mapping)");
      }
      return value;
    } catch (JsonMappingException e) {
      throw new IllegalArgumentException(prefix + message(e), e);
    } catch (JacksonException e) {
      throw new IllegalArgumentException(prefix + "not valid YAML: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * Parses {@code yaml} into {@code type}, with {@code defaults} (YAML text) filling every key the
   * document leaves out, at any depth: a mode's defaults (e.g. {@code {grpc: {host: 0.0.0.0}}})
   * under a user's file.
   */
  public static <T> T read(String yaml, String defaults, Class<T> type, String what) {
    String prefix = what == null ? "" : what + ": ";
    JsonNode doc;
    try {
      doc = YAML.readTree(yaml);
    } catch (JacksonException e) {
      throw new IllegalArgumentException(prefix + "not valid YAML: " + e.getOriginalMessage(), e);
    }
    if (doc == null || doc.isMissingNode() || doc.isNull()) {
      throw new IllegalArgumentException(prefix + "empty (expected a YAML mapping)");
    }
    if (doc instanceof ObjectNode object) {
      try {
        doc = merge((ObjectNode) YAML.readTree(defaults), object);
      } catch (JacksonException e) {
        throw new IllegalStateException("defaults: not valid YAML", e);
      }
    }
    try {
      return YAML.treeToValue(doc, type);
    } catch (JsonMappingException e) {
      throw new IllegalArgumentException(prefix + message(e), e);
    } catch (JacksonException e) {
      throw new IllegalArgumentException(prefix + "not valid YAML: " + e.getOriginalMessage(), e);
    }
  }

  /** {@code over} on top of {@code under}: mappings merge key by key, anything else replaces. */
  private static ObjectNode merge(ObjectNode under, ObjectNode over) {
    ObjectNode out = under.deepCopy();
    over.properties()
        .forEach(
            e -> {
              JsonNode below = out.get(e.getKey());
              if (below instanceof ObjectNode b && e.getValue() instanceof ObjectNode o) {
                out.set(e.getKey(), merge(b, o));
              } else {
                out.set(e.getKey(), e.getValue());
              }
            });
    return out;
  }

  /**
   * Reads a YAML file with defaults under it (see {@link #read(String, String, Class, String)}).
   */
  public static <T> T readFile(Path file, String defaults, Class<T> type) {
    try {
      return read(Files.readString(file), defaults, type, file.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /** Reads a YAML file; the file name prefixes every message. */
  public static <T> T readFile(Path file, Class<T> type) {
    try {
      return read(Files.readString(file), type, file.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /** A message naming the path of the value that failed. */
  public static String message(JsonMappingException e) {
    StringBuilder path = new StringBuilder();
    for (JsonMappingException.Reference ref : e.getPath()) {
      if (ref.getFieldName() != null) {
        path.append(path.isEmpty() ? "" : ".").append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        path.append('[').append(ref.getIndex()).append(']');
      }
    }
    if (e instanceof UnrecognizedPropertyException u) {
      return path + ": unknown property (expected one of " + u.getKnownPropertyIds() + ")";
    }
    Throwable cause = e.getCause();
    if (cause instanceof IllegalArgumentException) {
      return (path.isEmpty() ? "" : path + ".") + cause.getMessage();
    }
    return (path.isEmpty() ? "(root)" : path) + ": " + e.getOriginalMessage();
  }
}
