package dev.pointsman.gateway.proxy;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ApplicationProtocolNegotiationHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Builds a client connection's pipeline: TLS with ALPN choosing HTTP/2 (one child channel per
 * stream, each with the stream-to-HTTP-object codec and its own {@link DownstreamHandler}) or
 * HTTP/1.1; plaintext serves HTTP/1.1. Both get the limits and timeouts of the shipped Envoy
 * config: header block size, request headers timeout, idle connection timeout and (HTTP/2) the
 * concurrent stream limit.
 */
final class ClientPipeline extends ChannelInitializer<SocketChannel> {
  private final ProxyContext gw;
  private final SslContext tls;
  private final int maxHeaderBytes;
  private final ClientErrors errors;

  ClientPipeline(ProxyContext gw, SslContext tls) {
    this.gw = gw;
    this.tls = tls;
    this.maxHeaderBytes = gw.config().limits().maxHeaderBytes();
    this.errors = new ClientErrors(gw.metrics());
  }

  @Override
  protected void initChannel(SocketChannel ch) {
    if (tls == null) {
      http1(ch.pipeline(), "http");
      return;
    }
    ch.pipeline()
        .addLast(tls.newHandler(ch.alloc()))
        .addLast(
            new ApplicationProtocolNegotiationHandler(ApplicationProtocolNames.HTTP_1_1) {
              @Override
              protected void handshakeFailure(ChannelHandlerContext ctx, Throwable cause) {
                ClientErrors.handle(ctx, cause, gw.metrics());
              }

              @Override
              public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                ClientErrors.handle(ctx, cause, gw.metrics());
              }

              @Override
              protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
                if (ApplicationProtocolNames.HTTP_2.equals(protocol)) {
                  http2(ctx.pipeline());
                } else {
                  http1(ctx.pipeline(), "https");
                }
              }
            });
  }

  private void http1(ChannelPipeline p, String scheme) {
    DownstreamHandler handler = new DownstreamHandler(gw, false, scheme);
    HeadersDeadline deadline =
        new HeadersDeadline(gw.config().timeouts().requestHeaders(), gw.metrics(), handler::busy);
    p.addLast(idleTimer(), new IdleClose(handler::busy, gw.metrics()))
        .addLast(deadline.bytes())
        .addLast(new HttpServerCodec(4096, maxHeaderBytes, 64 * 1024))
        .addLast(deadline.http1Messages(), handler);
  }

  private void http2(ChannelPipeline p) {
    Http2Settings settings =
        Http2Settings.defaultSettings()
            .maxHeaderListSize(maxHeaderBytes)
            .maxConcurrentStreams(gw.config().limits().maxConcurrentStreams());
    Http2FrameCodec codec = Http2Codecs.server(settings, gw.metrics());
    BooleanSupplier busy = () -> codec.connection().numActiveStreams() > 0;
    HeadersDeadline deadline =
        new HeadersDeadline(gw.config().timeouts().requestHeaders(), gw.metrics(), busy);
    p.addLast(
        idleTimer(),
        new IdleClose(busy, gw.metrics()),
        codec,
        deadline.http2Frames(),
        new Http2MultiplexHandler(
            new ChannelInitializer<Channel>() {
              @Override
              protected void initChannel(Channel stream) {
                stream
                    .pipeline()
                    .addLast(
                        new Http2StreamFrameToHttpObjectCodec(true),
                        new DownstreamHandler(gw, true, "https"));
              }
            }),
        errors);
  }

  private IdleStateHandler idleTimer() {
    long idle = gw.config().timeouts().idleConnection().toMillis();
    return new IdleStateHandler(0, 0, idle, TimeUnit.MILLISECONDS);
  }
}
