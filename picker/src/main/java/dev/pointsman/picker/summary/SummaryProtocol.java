package dev.pointsman.picker.summary;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The cluster-summary channel: one unary gRPC method, {@code
 * pointsman.fleet.v1.ClusterSummaries/Get}, whose messages are JSON (Jackson) rather than generated
 * protobuf classes — the build has no code generator, and a summary is read a few times a second.
 * Fields a reader does not know are skipped, so a later release may add some within a version.
 */
public final class SummaryProtocol {
  private SummaryProtocol() {}

  /** The gRPC service name, also its health-check name. */
  public static final String SERVICE_NAME = "pointsman.fleet.v1.ClusterSummaries";

  /**
   * What a reader asks with.
   *
   * @param reader who is asking, for the publisher's logs (the fleet tier's name)
   */
  public record SummaryRequest(String reader) {}

  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  /** {@code Get}: the latest summary of the cluster. */
  public static final MethodDescriptor<SummaryRequest, ClusterSummary> GET =
      MethodDescriptor.<SummaryRequest, ClusterSummary>newBuilder()
          .setType(MethodDescriptor.MethodType.UNARY)
          .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE_NAME, "Get"))
          .setRequestMarshaller(new Json<>(SummaryRequest.class))
          .setResponseMarshaller(new Json<>(ClusterSummary.class))
          .build();

  /** A message as JSON; an unreadable one is an INTERNAL status naming the type. */
  private record Json<T>(Class<T> type) implements MethodDescriptor.Marshaller<T> {
    @Override
    public InputStream stream(T value) {
      try {
        return new ByteArrayInputStream(JSON.writeValueAsBytes(value));
      } catch (IOException e) {
        throw Status.INTERNAL
            .withDescription("cannot write " + type.getSimpleName() + ": " + e.getMessage())
            .asRuntimeException();
      }
    }

    @Override
    public T parse(InputStream stream) {
      try (stream) {
        return JSON.readValue(stream, type);
      } catch (IOException | IllegalArgumentException e) {
        throw Status.INTERNAL
            .withDescription(
                "unreadable " + type.getSimpleName() + " (expected its JSON): " + e.getMessage())
            .asRuntimeException();
      }
    }
  }
}
