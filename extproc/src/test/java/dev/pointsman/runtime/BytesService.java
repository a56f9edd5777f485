package dev.pointsman.runtime;

import io.grpc.BindableService;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.MethodDescriptor;
import io.grpc.MethodDescriptor.Marshaller;
import io.grpc.MethodDescriptor.MethodType;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A protoc-free test service over raw bytes: {@code Size} answers the request's length; {@code
 * Hold} sends one message and parks the call for the test to finish.
 */
final class BytesService implements BindableService {
  static final String NAME = "test.Bytes";
  static final Marshaller<byte[]> BYTES =
      new Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
          return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
          try {
            return stream.readAllBytes();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      };
  static final MethodDescriptor<byte[], byte[]> SIZE = method(MethodType.UNARY, "Size");
  static final MethodDescriptor<byte[], byte[]> HOLD = method(MethodType.SERVER_STREAMING, "Hold");

  /** Server sides of the {@code Hold} calls in progress, in arrival order. */
  final BlockingQueue<StreamObserver<byte[]>> held = new LinkedBlockingQueue<>();

  @Override
  public ServerServiceDefinition bindService() {
    return ServerServiceDefinition.builder(NAME)
        .addMethod(SIZE, ServerCalls.asyncUnaryCall(BytesService::size))
        .addMethod(HOLD, ServerCalls.asyncServerStreamingCall(this::hold))
        .build();
  }

  /** Calls {@code Size} with a 10 s deadline. */
  static int callSize(Channel channel, byte[] payload) {
    byte[] reply =
        ClientCalls.blockingUnaryCall(
            channel, SIZE, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), payload);
    return ByteBuffer.wrap(reply).getInt();
  }

  private static void size(byte[] request, StreamObserver<byte[]> response) {
    response.onNext(ByteBuffer.allocate(4).putInt(request.length).array());
    response.onCompleted();
  }

  private void hold(byte[] request, StreamObserver<byte[]> response) {
    response.onNext(new byte[] {1});
    held.add(response);
  }

  private static MethodDescriptor<byte[], byte[]> method(MethodType type, String name) {
    return MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(type)
        .setFullMethodName(MethodDescriptor.generateFullMethodName(NAME, name))
        .setRequestMarshaller(BYTES)
        .setResponseMarshaller(BYTES)
        .build();
  }
}
