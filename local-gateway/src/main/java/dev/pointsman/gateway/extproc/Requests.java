package dev.pointsman.gateway.extproc;

import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import dev.pointsman.gateway.http.HeaderList;
import io.envoyproxy.envoy.config.core.v3.HeaderMap;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ProcessingMode.BodySendMode;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpBody;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpHeaders;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpTrailers;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProtocolConfiguration;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * Builds the {@code ProcessingRequest}s Envoy sends with the shipped filter config: every header
 * value in {@code raw_value}, both bodies FULL_DUPLEX_STREAMED, trailers SEND, and the protocol
 * configuration on the first message of a stream.
 */
final class Requests {
  static final String SERVED_KEY = "x-gateway-destination-endpoint-served";
  private static final ProtocolConfiguration PROTOCOL =
      ProtocolConfiguration.newBuilder()
          .setRequestBodyMode(BodySendMode.FULL_DUPLEX_STREAMED)
          .setResponseBodyMode(BodySendMode.FULL_DUPLEX_STREAMED)
          .build();

  private Requests() {}

  static ProcessingRequest requestHeaders(HeaderList headers, boolean endOfStream) {
    return ProcessingRequest.newBuilder()
        .setRequestHeaders(
            HttpHeaders.newBuilder().setHeaders(map(headers)).setEndOfStream(endOfStream))
        .setProtocolConfig(PROTOCOL)
        .build();
  }

  static ProcessingRequest responseHeaders(
      HeaderList headers, boolean endOfStream, String servedEndpoint) {
    ProcessingRequest.Builder b =
        ProcessingRequest.newBuilder()
            .setResponseHeaders(
                HttpHeaders.newBuilder().setHeaders(map(headers)).setEndOfStream(endOfStream));
    if (servedEndpoint != null) {
      Struct lb =
          Struct.newBuilder()
              .putFields(SERVED_KEY, Value.newBuilder().setStringValue(servedEndpoint).build())
              .build();
      b.setMetadataContext(
          Metadata.newBuilder().putFilterMetadata(Replies.LB_NAMESPACE, lb).build());
    }
    return b.build();
  }

  static ProcessingRequest requestBody(ByteBuf chunk, boolean endOfStream) {
    return ProcessingRequest.newBuilder().setRequestBody(body(chunk, endOfStream)).build();
  }

  static ProcessingRequest responseBody(ByteBuf chunk, boolean endOfStream) {
    return ProcessingRequest.newBuilder().setResponseBody(body(chunk, endOfStream)).build();
  }

  static ProcessingRequest requestTrailers(HeaderList trailers) {
    return ProcessingRequest.newBuilder()
        .setRequestTrailers(HttpTrailers.newBuilder().setTrailers(map(trailers)))
        .build();
  }

  static ProcessingRequest responseTrailers(HeaderList trailers) {
    return ProcessingRequest.newBuilder()
        .setResponseTrailers(HttpTrailers.newBuilder().setTrailers(map(trailers)))
        .build();
  }

  private static HttpBody body(ByteBuf chunk, boolean endOfStream) {
    return HttpBody.newBuilder()
        .setBody(ByteString.copyFrom(chunk.nioBuffer()))
        .setEndOfStream(endOfStream)
        .build();
  }

  private static HeaderMap map(HeaderList headers) {
    HeaderMap.Builder map = HeaderMap.newBuilder();
    headers.forEach(
        (name, value) ->
            map.addHeaders(
                HeaderValue.newBuilder()
                    .setKey(name)
                    .setRawValue(ByteString.copyFrom(value, StandardCharsets.UTF_8))));
    return map.build();
  }
}
