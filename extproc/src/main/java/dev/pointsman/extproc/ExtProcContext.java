package dev.pointsman.extproc;

import dev.pointsman.inference.request.RequestParser;
import java.util.Objects;
import java.util.function.LongSupplier;

/** What every stream of one service shares. */
record ExtProcContext(
    ExtProcHandler handler,
    RequestParser parser,
    ExtProcSettings settings,
    ExtProcEvents events,
    LongSupplier clock) {
  ExtProcContext {
    Objects.requireNonNull(handler, "handler");
    Objects.requireNonNull(parser, "parser");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(events, "events");
    Objects.requireNonNull(clock, "clock");
  }
}
