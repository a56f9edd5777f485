package dev.pointsman.gateway;

import com.google.protobuf.ByteString;
import io.envoyproxy.envoy.service.ext_proc.v3.BodyMutation;
import io.envoyproxy.envoy.service.ext_proc.v3.BodyResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.CommonResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.StreamedBodyResponse;

/** Replies a scripted processor sends. */
final class Replies {
  private Replies() {}

  /** A full-duplex body echo on the request ({@code request}) or response side. */
  static ProcessingResponse echo(ByteString body, boolean endOfStream, boolean request) {
    BodyResponse reply =
        BodyResponse.newBuilder()
            .setResponse(
                CommonResponse.newBuilder()
                    .setBodyMutation(
                        BodyMutation.newBuilder()
                            .setStreamedResponse(
                                StreamedBodyResponse.newBuilder()
                                    .setBody(body)
                                    .setEndOfStream(endOfStream))))
            .build();
    ProcessingResponse.Builder b = ProcessingResponse.newBuilder();
    return request ? b.setRequestBody(reply).build() : b.setResponseBody(reply).build();
  }
}
