package dev.pointsman.extproc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Finds the OpenAI {@code usage} object near the end of a response body: the final JSON of a
 * non-streamed response, or the last SSE event of a streamed one ({@code stream_options.
 * include_usage}). Works on a bounded tail of the body; never throws on bad input.
 */
public final class UsageParser {
  private static final JsonFactory JSON = new JsonFactory();
  private static final byte[] KEY = "\"usage\"".getBytes(StandardCharsets.US_ASCII);

  private UsageParser() {}

  /** The last usage object in {@code tail[0..length)}, or {@link Usage#NONE}. */
  public static Usage parse(byte[] tail, int length) {
    for (int at = lastIndexOf(tail, length, length); at >= 0; at = lastIndexOf(tail, length, at)) {
      Usage u = parseAt(tail, at + KEY.length, length);
      if (u.present()) {
        return u;
      }
    }
    return Usage.NONE;
  }

  private static Usage parseAt(byte[] buf, int from, int length) {
    int i = from;
    while (i < length && (buf[i] == ' ' || buf[i] == ':' || buf[i] == '\n' || buf[i] == '\t')) {
      i++;
    }
    if (i >= length || buf[i] != '{') {
      return Usage.NONE;
    }
    try (JsonParser p = JSON.createParser(buf, i, length - i)) {
      p.nextToken();
      return readUsage(p);
    } catch (IOException | RuntimeException e) {
      return Usage.NONE;
    }
  }

  private static Usage readUsage(JsonParser p) throws IOException {
    int prompt = -1;
    int completion = -1;
    int cached = -1;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken t = p.nextToken();
      if (t == JsonToken.START_OBJECT && name.equals("prompt_tokens_details")) {
        cached = readCached(p);
      } else if (t.isStructStart()) {
        p.skipChildren();
      } else if (t == JsonToken.VALUE_NUMBER_INT) {
        switch (name) {
          case "prompt_tokens" -> prompt = p.getIntValue();
          case "completion_tokens" -> completion = p.getIntValue();
          default -> {}
        }
      }
    }
    return new Usage(prompt, completion, cached);
  }

  private static int readCached(JsonParser p) throws IOException {
    int cached = -1;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String name = p.currentName();
      JsonToken t = p.nextToken();
      if (t.isStructStart()) {
        p.skipChildren();
      } else if (t == JsonToken.VALUE_NUMBER_INT && name.equals("cached_tokens")) {
        cached = p.getIntValue();
      }
    }
    return cached;
  }

  private static int lastIndexOf(byte[] buf, int length, int before) {
    for (int i = Math.min(before, length - KEY.length) - 1; i >= 0; i--) {
      if (matches(buf, i)) {
        return i;
      }
    }
    return -1;
  }

  private static boolean matches(byte[] buf, int at) {
    for (int k = 0; k < KEY.length; k++) {
      if (buf[at + k] != KEY[k]) {
        return false;
      }
    }
    return true;
  }
}
