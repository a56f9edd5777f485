package dev.pointsman.sim.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import java.nio.charset.StandardCharsets;

/**
 * Routes one connection's HTTP requests to the OpenAI, admin and metrics handlers. One instance per
 * connection; its state is confined to the channel's event loop.
 */
final class PodHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
  private final SimPod pod;
  private CompletionHandler.Submitted current;

  PodHttpHandler(SimPod pod) {
    this.pod = pod;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
    if (req.decoderResult().isFailure()) {
      // the codec discards everything after a request it cannot parse: answer, then close
      HttpReplies.malformed(ctx, pod, req.decoderResult().cause());
      return;
    }
    boolean keepAlive = HttpUtil.isKeepAlive(req);
    String path = req.uri().split("\\?", 2)[0];
    String body = req.content().toString(StandardCharsets.UTF_8);
    boolean post = req.method().equals(HttpMethod.POST);
    switch (path) {
      case "/v1/chat/completions" -> generate(ctx, body, Api.CHAT, post, keepAlive);
      case "/v1/completions" -> generate(ctx, body, Api.COMPLETION, post, keepAlive);
      case "/v1/responses" -> generate(ctx, body, Api.RESPONSES, post, keepAlive);
      case "/v1/embeddings" -> {
        if (requirePost(ctx, post, keepAlive)) {
          current = EmbeddingHandler.handle(ctx, pod, body, keepAlive);
        }
      }
      case "/v1/models" -> AdminHandler.models(ctx, pod, keepAlive);
      case "/v1/load_lora_adapter" -> AdminHandler.loadLora(ctx, pod, body, keepAlive);
      case "/v1/unload_lora_adapter" -> AdminHandler.unloadLora(ctx, pod, body, keepAlive);
      case "/admin/faults" -> AdminHandler.faults(ctx, pod, post ? body : null, keepAlive);
      case "/health" ->
          HttpReplies.send(ctx, pod, keepAlive, HttpResponseStatus.OK, "text/plain", "");
      case "/sleep", "/wake_up", "/is_sleeping" ->
          SleepHandler.handle(ctx, pod, req.method(), path, req.uri(), keepAlive);
      default -> {
        if (MetricsHandler.serves(pod, path)) {
          MetricsHandler.handle(ctx, pod, path, keepAlive);
        } else {
          HttpReplies.error(
              ctx,
              pod,
              keepAlive,
              HttpResponseStatus.NOT_FOUND,
              "NotFoundError",
              "no route for " + req.method() + " " + path);
        }
      }
    }
  }

  private void generate(
      ChannelHandlerContext ctx, String body, Api api, boolean post, boolean keepAlive) {
    if (requirePost(ctx, post, keepAlive)) {
      current = CompletionHandler.handle(ctx, pod, body, api, keepAlive);
    }
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    if (ctx.channel().isWritable()
        && current != null
        && current.sink() instanceof StreamSession s) {
      s.drain();
    }
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (current != null) {
      pod.driver.abort(pod.index, current.id());
    }
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    ctx.close();
  }

  private boolean requirePost(ChannelHandlerContext ctx, boolean post, boolean keepAlive) {
    if (!post) {
      HttpReplies.error(
          ctx,
          pod,
          keepAlive,
          HttpResponseStatus.METHOD_NOT_ALLOWED,
          "BadRequestError",
          "expected POST");
    }
    return post;
  }
}
