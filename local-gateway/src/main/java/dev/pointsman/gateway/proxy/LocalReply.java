package dev.pointsman.gateway.proxy;

import dev.pointsman.body.error.OpenAiError;
import dev.pointsman.gateway.http.HeaderList;
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
    String json = new OpenAiError(status, message, OpenAiError.typeFor(status), code).toJson();
    HeaderList h =
        new HeaderList()
            .add(":status", Integer.toString(status))
            .add("content-type", "application/json");
    return new LocalReply(h, Unpooled.copiedBuffer(json, StandardCharsets.UTF_8));
  }

  int status() {
    return Headers.parseStatus(headers.get(":status"));
  }
}
