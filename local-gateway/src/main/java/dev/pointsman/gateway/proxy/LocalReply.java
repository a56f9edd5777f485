package dev.pointsman.gateway.proxy;

import dev.pointsman.extproc.Responses;
import dev.pointsman.gateway.http.HeaderList;
import dev.pointsman.inference.error.OpenAiError;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;

/**
 * A response the gateway makes itself (Envoy's local replies), with an OpenAI-style JSON body.
 *
 * @param headers {@code :status} and headers
 * @param body the body
 */
record LocalReply(HeaderList headers, ByteBuf body) {

  static LocalReply error(int status, String message, String code) {
    return of(new OpenAiError(status, message, OpenAiError.typeFor(status), code));
  }

  static LocalReply of(OpenAiError error) {
    int status = error.httpStatus();
    String json = error.toJson();
    HeaderList h =
        new HeaderList()
            .add(":status", Integer.toString(status))
            .add("content-type", "application/json");
    return new LocalReply(h, Unpooled.copiedBuffer(json, StandardCharsets.UTF_8));
  }

  /**
   * The reply as the client gets it: deploy/envoy/envoy.yaml's {@code local_reply_config} maps
   * every local 500 (picker unreachable, stream broken, a picker error) to 503 with {@code
   * retry-after: 1} and {@code x-pointsman-not-started: true} (no model server saw the request).
   */
  LocalReply mapped() {
    if (status() != 500) {
      return this;
    }
    HeaderList h = new HeaderList().add(":status", "503");
    headers.forEach(
        (name, value) -> {
          if (!name.equals(":status")) {
            h.add(name, value);
          }
        });
    if (!h.contains("retry-after")) {
      h.add("retry-after", "1");
    }
    if (!h.contains(Responses.NOT_STARTED)) {
      h.add(Responses.NOT_STARTED, "true");
    }
    return new LocalReply(h, body);
  }

  int status() {
    return Headers.parseStatus(headers.get(":status"));
  }
}
