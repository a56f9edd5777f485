package dev.pointsman.sim.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.pointsman.sim.engine.RequestResult;
import dev.pointsman.sim.engine.Segment;
import dev.pointsman.sim.engine.SimRequest;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.List;

/**
 * Handles {@code /v1/embeddings}. The inputs go through the engine as one prompt with a single
 * output token, so an embedding request costs a prefill and shows in the pod's queue and KV cache
 * as it would on a server; the answer is written when the engine finishes it.
 */
final class EmbeddingHandler {
  private EmbeddingHandler() {}

  static CompletionHandler.Submitted handle(
      ChannelHandlerContext ctx, SimPod pod, String body, boolean keepAlive) {
    EmbeddingCall call;
    try {
      call = EmbeddingCall.parse(OpenAiJson.MAPPER.readTree(body));
    } catch (JsonProcessingException e) {
      CompletionHandler.badRequest(
          ctx, pod, keepAlive, "invalid JSON body: " + e.getOriginalMessage());
      return null;
    } catch (IllegalArgumentException e) {
      CompletionHandler.badRequest(ctx, pod, keepAlive, e.getMessage());
      return null;
    }
    String adapter = CompletionHandler.admit(ctx, pod, keepAlive, call.model());
    if (adapter == null) {
      return null;
    }
    List<Segment> prompt = PromptMapper.segments(String.join("\n", call.inputs()));
    int promptTokens = prompt.stream().mapToInt(Segment::length).sum();
    if (!CompletionHandler.fits(ctx, pod, keepAlive, promptTokens + 1L)) {
      return null;
    }
    long id = pod.nextId();
    RequestSink sink = new Sink(ctx, pod, call, keepAlive);
    SimRequest r = new SimRequest(id, pod.driver.nowMs(), prompt, 1, adapter, ~id);
    pod.driver.submit(pod.index, r, pod.faults().slowStartMs(), sink);
    return new CompletionHandler.Submitted(id, sink);
  }

  /** Writes the vectors when the engine has run the prompt. */
  private record Sink(ChannelHandlerContext ctx, SimPod pod, EmbeddingCall call, boolean keepAlive)
      implements RequestSink {
    @Override
    public void onToken(int generated) {}

    @Override
    public void onFinish(RequestResult result) {
      String body = EmbeddingsJson.response(call);
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
}
