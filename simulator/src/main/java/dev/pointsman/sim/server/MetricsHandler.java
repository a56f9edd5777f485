package dev.pointsman.sim.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.concurrent.TimeUnit;

/**
 * The metrics endpoints, per imitated engine: {@code /metrics} in Prometheus text for vLLM, SGLang
 * and Triton; for trtllm-serve, JSON iteration statistics at {@code /metrics} and Prometheus text
 * at {@code /prometheus/metrics}. Honours the pod's metrics faults (down with 503 or close, slow);
 * a pod whose engine is restarting closes the connection.
 */
final class MetricsHandler {
  private static final String TEXT = "text/plain; version=0.0.4; charset=utf-8";
  static final String TRTLLM_PROMETHEUS_PATH = "/prometheus/metrics";

  private MetricsHandler() {}

  /** Whether {@code path} is a metrics endpoint of {@code pod}'s engine. */
  static boolean serves(SimPod pod, String path) {
    return path.equals("/metrics")
        || (path.equals(TRTLLM_PROMETHEUS_PATH) && pod.config.engine().equals("trtllm"));
  }

  static void handle(ChannelHandlerContext ctx, SimPod pod, String path, boolean keepAlive) {
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
        boolean json = pod.config.engine().equals("trtllm") && path.equals("/metrics");
        long delayNanos = (long) (f.metricsDelayMs() * 1e6);
        pod.driver
            .call(
                () -> {
                  if (!pod.driver.engine(pod.index).isUp()) {
                    return null;
                  }
                  return json ? iterations(pod) : render(pod);
                })
            .thenAccept(
                body -> {
                  if (body == null) {
                    ctx.executor().execute(ctx::close);
                    return;
                  }
                  ctx.executor()
                      .schedule(
                          () ->
                              HttpReplies.send(
                                  ctx,
                                  pod,
                                  keepAlive,
                                  HttpResponseStatus.OK,
                                  json ? "application/json" : TEXT,
                                  body),
                          delayNanos,
                          TimeUnit.NANOSECONDS);
                });
      }
    }
  }

  /** Renders the pod's Prometheus text; runs on the driver thread. */
  private static String render(SimPod pod) {
    PodView v = view(pod);
    return switch (pod.config.engine()) {
      case "sglang" -> SglangMetrics.render(v);
      case "trtllm" -> TrtllmMetrics.prometheus(v);
      case "triton-tensorrt-llm" -> TritonMetrics.render(v);
      default -> VllmMetrics.render(v);
    };
  }

  /** trtllm-serve's iteration statistics since the previous call; runs on the driver thread. */
  private static String iterations(SimPod pod) {
    PodView v = view(pod);
    return TrtllmMetrics.iterations(v, pod.reportSteps(v.snapshot().counters().steps()));
  }

  private static PodView view(SimPod pod) {
    return new PodView(
        pod.model(),
        pod.engineConfig.maxLoras(),
        pod.engineConfig.gpu().maxNumSeqs(),
        pod.engineConfig.gpu().blockSize(),
        pod.driver.engine(pod.index).snapshot(),
        pod.driver.ttft(pod.index),
        pod.driver.e2e(pod.index),
        pod.clock.millis() / 1000.0,
        pod.createdEpochSec,
        pod.sleepLevel(),
        pod.config.engineOptions());
  }
}
