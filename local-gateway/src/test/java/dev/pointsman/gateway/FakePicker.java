package dev.pointsman.gateway;

import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
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

  String address() {
    return "127.0.0.1:" + server.getPort();
  }

  @Override
  public void close() throws InterruptedException {
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }
}
