package dev.pointsman.sim.engine;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads self-validating config records from YAML. A validation error thrown by a record's compact
 * constructor comes back as an {@link IllegalArgumentException} whose message starts with the path
 * in the file, e.g. {@code pods[3].maxLoras: -1 (expected >= 0)}.
 */
public final class YamlFiles {
  private static final ObjectMapper MAPPER =
      new ObjectMapper(new YAMLFactory())
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

  private YamlFiles() {}

  /** Parses {@code in} as {@code type}; {@code source} names the file in error messages. */
  public static <T> T read(InputStream in, Class<T> type, String source) {
    try {
      return MAPPER.readValue(in, type);
    } catch (JsonMappingException e) {
      throw new IllegalArgumentException(source + ": " + describe(e), e);
    } catch (IOException e) {
      throw new IllegalArgumentException(source + ": cannot read (" + e.getMessage() + ")", e);
    }
  }

  static String describe(JsonMappingException e) {
    StringBuilder path = new StringBuilder();
    for (JsonMappingException.Reference ref : e.getPath()) {
      if (ref.getIndex() >= 0) {
        path.append('[').append(ref.getIndex()).append(']');
      } else if (ref.getFieldName() != null) {
        path.append(path.isEmpty() ? "" : ".").append(ref.getFieldName());
      }
    }
    Throwable cause = e.getCause();
    String detail =
        cause instanceof IllegalArgumentException ? cause.getMessage() : e.getOriginalMessage();
    if (path.isEmpty()) {
      return detail;
    }
    boolean fieldMessage = cause instanceof IllegalArgumentException;
    return path + (fieldMessage ? "." : ": ") + detail;
  }
}
