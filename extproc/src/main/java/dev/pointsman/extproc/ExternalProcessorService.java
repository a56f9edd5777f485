package dev.pointsman.extproc;

import dev.pointsman.inference.request.RequestParser;
import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.stub.StreamObserver;
import java.util.function.LongSupplier;

/**
 * Envoy's {@code envoy.service.ext_proc.v3.ExternalProcessor}: one bidirectional stream per HTTP
 * request. Reads the body in the configured mode, asks the {@link ExtProcHandler} once, and plays
 * the protocol around that decision exactly as Envoy expects.
 */
public final class ExternalProcessorService
    extends ExternalProcessorGrpc.ExternalProcessorImplBase {
  /** The gRPC service name, for health checks. */
  public static final String SERVICE_NAME = ExternalProcessorGrpc.SERVICE_NAME;

  private final ExtProcContext context;

  public ExternalProcessorService(
      ExtProcHandler handler,
      RequestParser parser,
      ExtProcSettings settings,
      ExtProcEvents events,
      LongSupplier nanoClock) {
    this.context = new ExtProcContext(handler, parser, settings, events, nanoClock);
  }

  @Override
  public StreamObserver<ProcessingRequest> process(StreamObserver<ProcessingResponse> out) {
    return new ExtProcStream(out, context, InboundWindow.open(out));
  }
}
