package dev.pointsman.gateway.extproc;

import dev.pointsman.gateway.http.HeaderMutation;
import io.netty.buffer.ByteBuf;
import java.util.Map;

/** One message from the picker, decoded out of Envoy's protobufs. */
public sealed interface PickerReply {

  /** Which half of the HTTP exchange a reply belongs to. */
  enum Side {
    REQUEST,
    RESPONSE
  }

  /**
   * A headers reply.
   *
   * @param lbMetadata the string fields of {@code dynamic_metadata["envoy.lb"]} (the only receiving
   *     namespace), empty if none
   */
  record Headers(
      Side side, HeaderMutation mutation, boolean clearRouteCache, Map<String, String> lbMetadata)
      implements PickerReply {
    public Headers {
      lbMetadata = Map.copyOf(lbMetadata);
    }
  }

  /** One body chunk sent back as {@code body_mutation.streamed_response}. */
  record Body(Side side, ByteBuf chunk, boolean endOfStream) implements PickerReply {}

  /** A trailers reply. */
  record Trailers(Side side, HeaderMutation mutation) implements PickerReply {}

  /** Answer the client directly; the picker ends the stream after it. */
  record Immediate(int status, HeaderMutation headers, ByteBuf body, String details)
      implements PickerReply {}

  /** A message Envoy would refuse in FULL_DUPLEX_STREAMED mode (it answers 500). */
  record Spurious(String why) implements PickerReply {}
}
