package dev.pointsman.inference.error;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * An error in the OpenAI format, {@code {"error":{"message":...,"type":...,"code":...}}}, with the
 * HTTP status it is sent with.
 *
 * @param httpStatus the HTTP status, 400 to 599
 * @param message a human-readable message
 * @param type the OpenAI error type, e.g. {@code invalid_request_error}
 * @param code the OpenAI error code, e.g. {@code model_not_found}; may be null
 */
public record OpenAiError(int httpStatus, String message, String type, String code) {
  private static final JsonFactory JSON = new JsonFactory();

  public OpenAiError {
    if (httpStatus < 400 || httpStatus > 599) {
      throw new IllegalArgumentException("httpStatus: " + httpStatus + " (expected 400..599)");
    }
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(type, "type");
  }

  /** The error for a rejection reason, with its status, type and code. */
  public static OpenAiError of(RejectReason reason, String message) {
    return new OpenAiError(reason.httpStatus(), message, reason.type(), reason.code());
  }

  /** The OpenAI error type conventionally used with an HTTP status. */
  public static String typeFor(int httpStatus) {
    return switch (httpStatus) {
      case 401 -> "authentication_error";
      case 403 -> "permission_error";
      case 404 -> "not_found_error";
      case 429 -> "rate_limit_error";
      default -> httpStatus >= 500 ? "server_error" : "invalid_request_error";
    };
  }

  /** The JSON body to send to the client. */
  public String toJson() {
    StringWriter out = new StringWriter(64 + message.length());
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeObjectFieldStart("error");
      g.writeStringField("message", message);
      g.writeStringField("type", type);
      g.writeStringField("code", code);
      g.writeEndObject();
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }
}
