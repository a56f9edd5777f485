package dev.pointsman.runtime;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** A complete response of the {@link AdminServer}. */
record HttpReply(int status, String contentType, byte[] body) {
  static final String TEXT = "text/plain; charset=utf-8";
  static final String JSON = "application/json";

  static HttpReply text(int status, String body) {
    return new HttpReply(status, TEXT, body.getBytes(StandardCharsets.UTF_8));
  }

  static HttpReply json(ObjectMapper mapper, int status, Object body) {
    try {
      return new HttpReply(status, JSON, mapper.writeValueAsBytes(body));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("admin: body not serializable to JSON: " + e, e);
    }
  }

  /** An error in the OpenAI format, {@code {"error": {"message", "type", "code"}}}. */
  static HttpReply error(ObjectMapper mapper, int status, String message, String code) {
    String type = status >= 500 ? "server_error" : "invalid_request_error";
    return json(
        mapper, status, Map.of("error", Map.of("message", message, "type", type, "code", code)));
  }
}
