package dev.pointsman.gateway.proxy;

import dev.pointsman.gateway.telemetry.GatewayMetrics;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;

/**
 * The client listener's HTTP/2 frame codec: Netty's, except that a request whose header block is
 * over {@code SETTINGS_MAX_HEADER_LIST_SIZE} gets a 431 with an OpenAI-format body on its stream
 * (Netty's own 431 has none), counted like HTTP/1.1's.
 */
final class Http2Codecs {
  private Http2Codecs() {}

  static Http2FrameCodec server(Http2Settings settings, GatewayMetrics metrics) {
    return new Builder(metrics).validateHeaders(true).initialSettings(settings).build();
  }

  private static final class Builder extends Http2FrameCodecBuilder {
    private final GatewayMetrics metrics;

    Builder(GatewayMetrics metrics) {
      this.metrics = metrics;
      server(true);
      gracefulShutdownTimeoutMillis(0); // as forServer()
    }

    @Override
    protected Http2FrameCodec build(
        Http2ConnectionDecoder decoder, Http2ConnectionEncoder encoder, Http2Settings settings) {
      return new Codec(
          encoder, decoder, settings, decoupleCloseAndGoAway(), flushPreface(), metrics);
    }
  }

  private static final class Codec extends Http2FrameCodec {
    private final GatewayMetrics metrics;
    private final long maxHeaderBytes;

    Codec(
        Http2ConnectionEncoder encoder,
        Http2ConnectionDecoder decoder,
        Http2Settings settings,
        boolean decoupleCloseAndGoAway,
        boolean flushPreface,
        GatewayMetrics metrics) {
      super(encoder, decoder, settings, decoupleCloseAndGoAway, flushPreface);
      this.metrics = metrics;
      Long max = settings.maxHeaderListSize();
      this.maxHeaderBytes = max == null ? -1 : max;
    }

    @Override
    protected void handleServerHeaderDecodeSizeError(
        ChannelHandlerContext ctx, Http2Stream stream) {
      LocalReply r =
          LocalReply.error(
              431,
              "request header block larger than " + maxHeaderBytes + " bytes",
              "headers_too_large");
      Http2Headers h =
          new DefaultHttp2Headers()
              .status("431")
              .set("content-type", "application/json")
              .setInt("content-length", r.body().readableBytes());
      metrics.request(431);
      encoder().writeHeaders(ctx, stream.id(), h, 0, false, ctx.newPromise());
      encoder().writeData(ctx, stream.id(), r.body(), 0, true, ctx.newPromise());
      try {
        // out before the RST_STREAM, or the client loses the answer
        encoder().flowController().writePendingBytes();
      } catch (Http2Exception e) {
        ctx.fireExceptionCaught(e);
      }
      // The answer is complete: stop the client sending the rest of its request without an error
      // (RFC 9113 §8.1, NO_ERROR). Netty would reset the stream next with the decode error's
      // PROTOCOL_ERROR, which a client still sending its body takes as a failure, not an answer;
      // a stream already reset is not reset again.
      resetStream(ctx, stream.id(), Http2Error.NO_ERROR.code(), ctx.newPromise());
    }
  }
}
