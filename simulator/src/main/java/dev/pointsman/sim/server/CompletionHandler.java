package dev.pointsman.sim.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.pointsman.sim.engine.Segment;
import dev.pointsman.sim.engine.SimRequest;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.List;

/** Handles {@code /v1/chat/completions}, {@code /v1/completions} and {@code /v1/responses}. */
final class CompletionHandler {
  private CompletionHandler() {}

  /**
   * A request handed to the engine.
   *
   * @param id engine request id
   * @param sink where its events go
   */
  record Submitted(long id, RequestSink sink) {}

  /**
   * Accepts a completion request; returns what was submitted, or null (an error response was sent,
   * or the pod hangs).
   */
  static Submitted handle(
      ChannelHandlerContext ctx, SimPod pod, String body, Api api, boolean keepAlive) {
    CompletionCall call;
    try {
      JsonNode json = OpenAiJson.MAPPER.readTree(body);
      call = CompletionCall.parse(api, json);
    } catch (JsonProcessingException e) {
      badRequest(ctx, pod, keepAlive, "invalid JSON body: " + e.getOriginalMessage());
      return null;
    } catch (IllegalArgumentException e) {
      badRequest(ctx, pod, keepAlive, e.getMessage());
      return null;
    }
    String adapter = admit(ctx, pod, keepAlive, call.model());
    if (adapter == null) {
      return null;
    }
    return submit(ctx, pod, call, adapter, keepAlive);
  }

  private static Submitted submit(
      ChannelHandlerContext ctx,
      SimPod pod,
      CompletionCall call,
      String adapter,
      boolean keepAlive) {
    List<Segment> prompt = PromptMapper.segments(call.promptText());
    int promptTokens = prompt.stream().mapToInt(Segment::length).sum();
    int output = call.maxTokens() > 0 ? call.maxTokens() : pod.sampleOutput(promptTokens);
    if (!fits(ctx, pod, keepAlive, promptTokens + (long) output)) {
      return null;
    }
    long id = pod.nextId();
    OpenAiJson.Reply reply =
        new OpenAiJson.Reply(
            call.api(),
            call.api().idPrefix() + pod.name() + "-" + id,
            pod.clock.instant().getEpochSecond(),
            call.model(),
            promptTokens,
            call.n());
    RequestSink sink =
        call.stream()
            ? new StreamSession(ctx.channel(), pod, reply, call, keepAlive)
            : new UnarySession(ctx, pod, reply, call, keepAlive);
    SimRequest r = new SimRequest(id, pod.driver.nowMs(), prompt, output, adapter, ~id);
    pod.driver.submit(pod.index, r, pod.faults().slowStartMs(), sink);
    return new Submitted(id, sink);
  }

  /**
   * What every request meets before the engine: an injected hang, a sleeping engine (503), an
   * injected error, then the model. Returns the adapter serving {@code model} ("" for the base
   * model), or null when the request ends here (an error was sent, or the pod hangs).
   */
  static String admit(ChannelHandlerContext ctx, SimPod pod, boolean keepAlive, String model) {
    if (pod.faults().hang()) {
      return null;
    }
    if (pod.sleepLevel() > 0) {
      HttpReplies.error(
          ctx,
          pod,
          keepAlive,
          HttpResponseStatus.SERVICE_UNAVAILABLE,
          "ServiceUnavailableError",
          "The engine is sleeping (level " + pod.sleepLevel() + "); POST /wake_up to wake it.");
      return null;
    }
    if (pod.rollError()) {
      HttpReplies.error(
          ctx,
          pod,
          keepAlive,
          HttpResponseStatus.INTERNAL_SERVER_ERROR,
          "InternalServerError",
          "injected fault");
      return null;
    }
    String adapter = resolveAdapter(pod, model);
    if (adapter == null) {
      HttpReplies.error(
          ctx,
          pod,
          keepAlive,
          HttpResponseStatus.NOT_FOUND,
          "NotFoundError",
          "The model `" + model + "` does not exist.");
    }
    return adapter;
  }

  /** Whether {@code tokens} fit the pod's KV cache; if not, the client got vLLM's 400. */
  static boolean fits(ChannelHandlerContext ctx, SimPod pod, boolean keepAlive, long tokens) {
    long capacity = pod.engineConfig.gpu().kvTokens();
    if (tokens <= capacity) {
      return true;
    }
    badRequest(
        ctx,
        pod,
        keepAlive,
        "This model's maximum context length is "
            + capacity
            + " tokens. However, you requested "
            + tokens
            + " tokens.");
    return false;
  }

  /** The adapter serving {@code model} ("" for the base model), or null if the pod has neither. */
  static String resolveAdapter(SimPod pod, String model) {
    if (model.equals(pod.model())) {
      return "";
    }
    return pod.adapters().containsKey(model) ? model : null;
  }

  static void badRequest(ChannelHandlerContext ctx, SimPod pod, boolean keepAlive, String message) {
    HttpReplies.error(
        ctx, pod, keepAlive, HttpResponseStatus.BAD_REQUEST, "BadRequestError", message);
  }
}
