package dev.pointsman.sim.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.concurrent.TimeUnit;

/**
 * {@code GET /metrics}, honouring the pod's metrics faults (down with 503 or close, slow); a pod
 * whose engine is restarting closes the connection.
 */
final class MetricsHandler {
  private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private MetricsHandler() {}

  static void handle(ChannelHandlerContext ctx, SimPod pod, boolean keepAlive) {
    FaultConfig f = pod.faults();
    switch (f.metrics()) {
      case "503" ->
          HttpReplies.send(
              ctx,
              pod,
              keepAlive,
              HttpResponseStatus.SERVICE_UNAVAILABLE,
              "text/plain",
              "metrics unavailable (injected fault)\n");
      case "close" -> ctx.close();
      default -> {
        long delayNanos = (long) (f.metricsDelayMs() * 1e6);
        pod.driver
            .call(() -> pod.driver.engine(pod.index).isUp() ? render(pod) : null)
            .thenAccept(
                text -> {
                  if (text == null) {
                    ctx.executor().execute(ctx::close);
                    return;
                  }
                  ctx.executor()
                      .schedule(
                          () ->
                              HttpReplies.send(
                                  ctx, pod, keepAlive, HttpResponseStatus.OK, CONTENT_TYPE, text),
                          delayNanos,
                          TimeUnit.NANOSECONDS);
                });
      }
    }
  }

  /** Renders the pod's metrics; runs on the driver thread. */
  private static String render(SimPod pod) {
    return MetricsRenderer.render(
        pod.config.engine(),
        pod.model(),
        pod.engineConfig.maxLoras(),
        pod.driver.engine(pod.index).snapshot(),
        pod.driver.ttft(pod.index),
        pod.clock.millis() / 1000.0);
  }
}
