package dev.pointsman.runtime;

import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/** Real-socket gRPC clients for the runtime tests. */
final class Clients {
  private Clients() {}

  /** A TLS channel to 127.0.0.1 trusting {@code certificatePem}, verifying {@code authority}. */
  static ManagedChannel tls(int port, String certificatePem, String authority) throws SSLException {
    var trust = new ByteArrayInputStream(certificatePem.getBytes(StandardCharsets.US_ASCII));
    return NettyChannelBuilder.forAddress("127.0.0.1", port)
        .overrideAuthority(authority)
        .sslContext(GrpcSslContexts.forClient().trustManager(trust).build())
        .build();
  }

  /** A plaintext channel to 127.0.0.1. */
  static ManagedChannel plaintext(int port) {
    return NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
  }

  /** The health {@code Check} answer for {@code service}, with a 10 s deadline. */
  static ServingStatus check(ManagedChannel channel, String service) {
    return HealthGrpc.newBlockingStub(channel)
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .check(HealthCheckRequest.newBuilder().setService(service).build())
        .getStatus();
  }
}
