package dev.pointsman.gateway.extproc;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import dev.pointsman.gateway.extproc.PickerReply.Side;
import dev.pointsman.gateway.http.HeaderMutation;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import io.envoyproxy.envoy.service.ext_proc.v3.BodyResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.CommonResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.HeadersResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ImmediateResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Decodes {@code ProcessingResponse}s as Envoy's ext_proc filter reads them in full duplex. */
final class Replies {
  static final String LB_NAMESPACE = "envoy.lb";

  private Replies() {}

  static PickerReply decode(ProcessingResponse r) {
    try {
      return switch (r.getResponseCase()) {
        case REQUEST_HEADERS -> headers(Side.REQUEST, r.getRequestHeaders(), r);
        case RESPONSE_HEADERS -> headers(Side.RESPONSE, r.getResponseHeaders(), r);
        case REQUEST_BODY -> body(Side.REQUEST, r.getRequestBody());
        case RESPONSE_BODY -> body(Side.RESPONSE, r.getResponseBody());
        case REQUEST_TRAILERS ->
            new PickerReply.Trailers(
                Side.REQUEST, mutation(r.getRequestTrailers().getHeaderMutation()));
        case RESPONSE_TRAILERS ->
            new PickerReply.Trailers(
                Side.RESPONSE, mutation(r.getResponseTrailers().getHeaderMutation()));
        case IMMEDIATE_RESPONSE -> immediate(r.getImmediateResponse());
        case RESPONSE_NOT_SET -> new PickerReply.Spurious("empty ProcessingResponse");
      };
    } catch (IllegalArgumentException e) {
      return new PickerReply.Spurious(e.getMessage());
    }
  }

  private static PickerReply headers(Side side, HeadersResponse h, ProcessingResponse r) {
    CommonResponse c = h.getResponse();
    if (c.getStatus() == CommonResponse.ResponseStatus.CONTINUE_AND_REPLACE
        || c.hasBodyMutation()) {
      return new PickerReply.Spurious("headers reply replaces the body in full-duplex mode");
    }
    return new PickerReply.Headers(
        side, mutation(c.getHeaderMutation()), c.getClearRouteCache(), lb(r));
  }

  private static PickerReply body(Side side, BodyResponse b) {
    CommonResponse c = b.getResponse();
    if (!c.getBodyMutation().hasStreamedResponse()) {
      return new PickerReply.Spurious(
          side + " body reply without body_mutation.streamed_response in full-duplex mode");
    }
    var streamed = c.getBodyMutation().getStreamedResponse();
    return new PickerReply.Body(
        side,
        Unpooled.wrappedBuffer(streamed.getBody().asReadOnlyByteBuffer()),
        streamed.getEndOfStream());
  }

  private static PickerReply immediate(ImmediateResponse i) {
    int status = i.getStatus().getCodeValue();
    return new PickerReply.Immediate(
        status < 200 || status > 599 ? 500 : status,
        mutation(i.getHeaders()),
        Unpooled.wrappedBuffer(i.getBody().asReadOnlyByteBuffer()),
        i.getDetails());
  }

  static HeaderMutation mutation(io.envoyproxy.envoy.service.ext_proc.v3.HeaderMutation m) {
    List<HeaderMutation.Set> set = new ArrayList<>(m.getSetHeadersCount());
    for (HeaderValueOption o : m.getSetHeadersList()) {
      set.add(new HeaderMutation.Set(o.getHeader().getKey(), value(o.getHeader()), action(o)));
    }
    return new HeaderMutation(set, m.getRemoveHeadersList());
  }

  /** Envoy reads {@code raw_value}; {@code value} alone yields an empty value, both is an error. */
  private static String value(HeaderValue h) {
    if (!h.getRawValue().isEmpty() && !h.getValue().isEmpty()) {
      throw new IllegalArgumentException(
          "header '" + h.getKey() + "' sets both value and raw_value (expected raw_value only)");
    }
    return h.getRawValue().toString(StandardCharsets.UTF_8);
  }

  private static HeaderMutation.Action action(HeaderValueOption o) {
    if (o.hasAppend()) {
      return o.getAppend().getValue()
          ? HeaderMutation.Action.APPEND_IF_EXISTS_OR_ADD
          : HeaderMutation.Action.OVERWRITE_IF_EXISTS_OR_ADD;
    }
    return switch (o.getAppendAction()) {
      case ADD_IF_ABSENT -> HeaderMutation.Action.ADD_IF_ABSENT;
      case OVERWRITE_IF_EXISTS_OR_ADD -> HeaderMutation.Action.OVERWRITE_IF_EXISTS_OR_ADD;
      case OVERWRITE_IF_EXISTS -> HeaderMutation.Action.OVERWRITE_IF_EXISTS;
      default -> HeaderMutation.Action.APPEND_IF_EXISTS_OR_ADD;
    };
  }

  private static Map<String, String> lb(ProcessingResponse r) {
    if (!r.hasDynamicMetadata()) {
      return Map.of();
    }
    Value ns = r.getDynamicMetadata().getFieldsMap().get(LB_NAMESPACE);
    if (ns == null || !ns.hasStructValue()) {
      return Map.of();
    }
    Map<String, String> out = new HashMap<>();
    Struct s = ns.getStructValue();
    s.getFieldsMap()
        .forEach(
            (k, v) -> {
              if (v.hasStringValue()) {
                out.put(k, v.getStringValue());
              }
            });
    return out;
  }
}
