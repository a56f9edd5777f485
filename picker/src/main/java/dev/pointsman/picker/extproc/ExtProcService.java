package dev.pointsman.picker.extproc;

import dev.pointsman.extproc.ExtProcEvents;
import dev.pointsman.extproc.ExtProcSettings;
import dev.pointsman.extproc.ExternalProcessorService;
import dev.pointsman.inference.request.RequestParser;
import dev.pointsman.picker.routing.Routing;
import io.grpc.BindableService;
import java.util.function.LongSupplier;

/**
 * The endpoint picker's ext_proc service: the shared protocol implementation ({@link
 * ExternalProcessorService}) with the picker's routing decision.
 */
public final class ExtProcService {
  /** The gRPC service name, for health checks. */
  public static final String SERVICE_NAME = ExternalProcessorService.SERVICE_NAME;

  private ExtProcService() {}

  /** Builds the gRPC service. */
  public static BindableService create(
      Routing routing,
      RequestParser parser,
      ExtProcSettings settings,
      ExtProcObserver observer,
      LongSupplier nanoClock) {
    return create(routing, parser, settings, observer, nanoClock, PickerOptions.DEFAULTS);
  }

  /** Builds the gRPC service with the given protocol options. */
  public static BindableService create(
      Routing routing,
      RequestParser parser,
      ExtProcSettings settings,
      ExtProcObserver observer,
      LongSupplier nanoClock,
      PickerOptions options) {
    return create(routing, parser, settings, observer, nanoClock, options, null);
  }

  /**
   * Builds the gRPC service; with {@code flow} set (flow control on), requests are submitted to
   * {@code routing} and may wait there with their stream open.
   */
  public static BindableService create(
      Routing routing,
      RequestParser parser,
      ExtProcSettings settings,
      ExtProcObserver observer,
      LongSupplier nanoClock,
      PickerOptions options,
      FlowHeaders flow) {
    ExtProcEvents events =
        new ExtProcEvents() {
          @Override
          public void onRejected(String reason, int httpStatus) {
            observer.onRejected(reason, httpStatus);
          }

          @Override
          public void onStreamEnd(String how) {
            observer.onStreamEnd(how);
          }
        };
    return new ExternalProcessorService(
        new PickerHandler(routing, observer, nanoClock, options, flow),
        parser,
        settings,
        events,
        nanoClock);
  }
}
