package dev.pointsman.gateway.proxy;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ApplicationProtocolNegotiationHandler;
import io.netty.handler.ssl.SslContext;

/**
 * Builds a client connection's pipeline: TLS with ALPN choosing HTTP/2 (one child channel per
 * stream, each with the stream-to-HTTP-object codec and its own {@link DownstreamHandler}) or
 * HTTP/1.1; plaintext serves HTTP/1.1.
 */
final class ClientPipeline extends ChannelInitializer<SocketChannel> {
  private final ProxyContext gw;
  private final SslContext tls;
  private final int maxHeaderBytes;

  ClientPipeline(ProxyContext gw, SslContext tls) {
    this.gw = gw;
    this.tls = tls;
    this.maxHeaderBytes = gw.config().limits().maxHeaderBytes();
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
    p.addLast(new HttpServerCodec(4096, maxHeaderBytes, 64 * 1024))
        .addLast(new DownstreamHandler(gw, false, scheme));
  }

  private void http2(ChannelPipeline p) {
    p.addLast(
        Http2FrameCodecBuilder.forServer().validateHeaders(true).build(),
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
            }));
  }
}
