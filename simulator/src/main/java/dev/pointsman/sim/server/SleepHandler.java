package dev.pointsman.sim.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.util.List;

/**
 * vLLM's sleep mode endpoints (served by vLLM in development mode): {@code POST /sleep?level=1|2}
 * puts the engine to sleep, {@code POST /wake_up} wakes it, {@code GET /is_sleeping} answers {@code
 * {"is_sleeping": bool}}. While asleep, generation and embedding requests get 503 (vLLM's sleep
 * mode documentation) and {@code vllm:engine_sleep_state} shows the level; requests already running
 * finish. Other engines answer 404.
 */
final class SleepHandler {
  private SleepHandler() {}

  static void handle(
      ChannelHandlerContext ctx,
      SimPod pod,
      HttpMethod method,
      String path,
      String uri,
      boolean keepAlive) {
    if (!pod.config.engine().equals("vllm")) {
      HttpReplies.error(
          ctx,
          pod,
          keepAlive,
          HttpResponseStatus.NOT_FOUND,
          "NotFoundError",
          "no route for " + method + " " + path);
      return;
    }
    HttpMethod expected = path.equals("/is_sleeping") ? HttpMethod.GET : HttpMethod.POST;
    if (!method.equals(expected)) {
      HttpReplies.error(
          ctx,
          pod,
          keepAlive,
          HttpResponseStatus.METHOD_NOT_ALLOWED,
          "BadRequestError",
          "expected " + expected);
      return;
    }
    switch (path) {
      case "/sleep" -> {
        List<String> level = new QueryStringDecoder(uri).parameters().get("level");
        String value = level == null || level.isEmpty() ? "1" : level.get(0);
        if (!value.equals("1") && !value.equals("2")) {
          CompletionHandler.badRequest(
              ctx, pod, keepAlive, "level: " + value + " (expected 1 or 2)");
          return;
        }
        pod.setSleepLevel(Integer.parseInt(value));
        HttpReplies.send(ctx, pod, keepAlive, HttpResponseStatus.OK, "text/plain", "");
      }
      case "/wake_up" -> {
        pod.setSleepLevel(0);
        HttpReplies.send(ctx, pod, keepAlive, HttpResponseStatus.OK, "text/plain", "");
      }
      default ->
          HttpReplies.json(
              ctx,
              pod,
              keepAlive,
              HttpResponseStatus.OK,
              "{\"is_sleeping\":" + (pod.sleepLevel() > 0) + "}");
    }
  }
}
