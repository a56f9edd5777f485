package dev.pointsman.gateway;

import com.google.protobuf.ByteString;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import io.envoyproxy.envoy.service.ext_proc.v3.CommonResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.envoyproxy.envoy.service.ext_proc.v3.HeaderMutation;
import io.envoyproxy.envoy.service.ext_proc.v3.HeadersResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.Server;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * A scripted plaintext ext_proc server: {@code script} sees every message of a stream with the
 * stream's reply observer, to play misbehaving or minimal processors.
 */
final class FakePicker implements AutoCloseable {
  private final Server server;

  FakePicker(BiConsumer<ProcessingRequest, StreamObserver<ProcessingResponse>> script)
      throws Exception {
    this.server =
        NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
            .addService(
                new ExternalProcessorGrpc.ExternalProcessorImplBase() {
                  @Override
                  public StreamObserver<ProcessingRequest> process(
                      StreamObserver<ProcessingResponse> out) {
                    return new StreamObserver<ProcessingRequest>() {
                      @Override
                      public void onNext(ProcessingRequest value) {
                        script.accept(value, out);
                      }

                      @Override
                      public void onError(Throwable t) {}

                      @Override
                      public void onCompleted() {
                        out.onCompleted();
                      }
                    };
                  }
                })
            .build()
            .start();
  }

  /**
   * A processor that routes every request to {@code destination} the way the picker does: headers
   * reply at the body's end (the destination and {@code extraHeaders}, name then value), then the
   * body echoed, then plain continues for the response.
   */
  static BiConsumer<ProcessingRequest, StreamObserver<ProcessingResponse>> routingTo(
      String destination, String... extraHeaders) {
    return (req, out) -> {
      if (req.hasRequestBody()) {
        out.onNext(route(destination, extraHeaders));
        out.onNext(Replies.echo(req.getRequestBody().getBody(), true, true));
      } else if (req.hasResponseHeaders()) {
        out.onNext(
            ProcessingResponse.newBuilder()
                .setResponseHeaders(HeadersResponse.getDefaultInstance())
                .build());
      } else if (req.hasResponseBody()) {
        out.onNext(
            Replies.echo(
                req.getResponseBody().getBody(), req.getResponseBody().getEndOfStream(), false));
      }
    };
  }

  private static ProcessingResponse route(String destination, String... extraHeaders) {
    HeaderMutation.Builder mutation =
        HeaderMutation.newBuilder()
            .addSetHeaders(set("x-gateway-destination-endpoint", destination));
    for (int i = 0; i < extraHeaders.length; i += 2) {
      mutation.addSetHeaders(set(extraHeaders[i], extraHeaders[i + 1]));
    }
    return ProcessingResponse.newBuilder()
        .setRequestHeaders(
            HeadersResponse.newBuilder()
                .setResponse(
                    CommonResponse.newBuilder()
                        .setHeaderMutation(mutation)
                        .setClearRouteCache(true)))
        .build();
  }

  private static HeaderValueOption set(String name, String value) {
    return HeaderValueOption.newBuilder()
        .setHeader(
            HeaderValue.newBuilder().setKey(name).setRawValue(ByteString.copyFromUtf8(value)))
        .setAppendAction(HeaderValueOption.HeaderAppendAction.OVERWRITE_IF_EXISTS_OR_ADD)
        .build();
  }

  String address() {
    return "127.0.0.1:" + server.getPort();
  }

  @Override
  public void close() throws InterruptedException {
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }
}
