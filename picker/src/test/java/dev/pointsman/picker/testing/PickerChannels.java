package dev.pointsman.picker.testing;

import dev.pointsman.picker.app.PickerApp;
import io.grpc.ManagedChannel;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLException;

/** A gRPC channel to a running picker's ext_proc port, trusting its own certificate. */
public final class PickerChannels {
  private PickerChannels() {}

  /** A TLS channel to {@code app}, as Envoy's picker cluster opens one (authority localhost). */
  public static ManagedChannel trusting(PickerApp app) {
    String pem = app.certificatePem().orElseThrow();
    try {
      return NettyChannelBuilder.forAddress("localhost", app.grpcPort())
          .sslContext(
              GrpcSslContexts.forClient()
                  .trustManager(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))
                  .build())
          .build();
    } catch (SSLException e) {
      throw new IllegalStateException("the picker's certificate: " + e.getMessage(), e);
    }
  }
}
