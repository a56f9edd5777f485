package dev.pointsman.sim.server;

import dev.pointsman.sim.engine.RequestResult;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpResponseStatus;

/** One non-streamed response, written on the event loop when the request finishes. */
final class UnarySession implements RequestSink {
  private final ChannelHandlerContext ctx;
  private final SimPod pod;
  private final OpenAiJson.Reply reply;
  private final String finishReason;
  private final boolean keepAlive;

  UnarySession(
      ChannelHandlerContext ctx,
      SimPod pod,
      OpenAiJson.Reply reply,
      CompletionCall call,
      boolean keepAlive) {
    this.ctx = ctx;
    this.pod = pod;
    this.reply = reply;
    this.finishReason = call.maxTokens() > 0 ? "length" : "stop";
    this.keepAlive = keepAlive;
  }

  @Override
  public void onToken(int generated) {}

  @Override
  public void onFinish(RequestResult r) {
    String body =
        reply.api() == Api.RESPONSES
            ? ResponsesJson.response(
                    reply,
                    finishReason.equals("length") ? "incomplete" : "completed",
                    OpenAiJson.text(0, r.outputTokens()),
                    r.outputTokens(),
                    r.cachedTokens())
                .toString()
            : OpenAiJson.full(reply, r.outputTokens(), r.cachedTokens(), finishReason);
    ctx.executor()
        .execute(() -> HttpReplies.json(ctx, pod, keepAlive, HttpResponseStatus.OK, body));
  }

  @Override
  public void onLost() {
    ctx.executor().execute(ctx::close);
  }

  @Override
  public void onRejected(String message) {
    HttpReplies.rejected(ctx, pod, keepAlive, message);
  }
}
