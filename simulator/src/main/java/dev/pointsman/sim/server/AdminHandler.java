package dev.pointsman.sim.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * {@code /v1/models}, vLLM's dynamic LoRA endpoints ({@code {"lora_name","lora_path"}}) and {@code
 * /admin/faults} (GET shows, POST replaces the pod's {@link FaultConfig}).
 */
final class AdminHandler {
  private AdminHandler() {}

  static void models(ChannelHandlerContext ctx, SimPod pod, boolean keepAlive) {
    var root = OpenAiJson.MAPPER.createObjectNode().put("object", "list");
    root.set("data", OpenAiJson.models(pod.model(), pod.createdEpochSec, pod.adapters()));
    HttpReplies.json(ctx, pod, keepAlive, HttpResponseStatus.OK, root.toString());
  }

  static void loadLora(ChannelHandlerContext ctx, SimPod pod, String body, boolean keepAlive) {
    JsonNode json = parse(ctx, pod, body, keepAlive);
    if (json == null) {
      return;
    }
    String name = json.path("lora_name").asText("");
    String path = json.path("lora_path").asText("");
    if (name.isEmpty() || path.isEmpty()) {
      bad(ctx, pod, keepAlive, "Both 'lora_name' and 'lora_path' must be provided.");
    } else if (pod.adapters().putIfAbsent(name, path) != null) {
      bad(ctx, pod, keepAlive, "The lora adapter '" + name + "' has already been loaded.");
    } else {
      HttpReplies.send(
          ctx,
          pod,
          keepAlive,
          HttpResponseStatus.OK,
          "text/plain",
          "Success: LoRA adapter '" + name + "' added successfully.");
    }
  }

  static void unloadLora(ChannelHandlerContext ctx, SimPod pod, String body, boolean keepAlive) {
    JsonNode json = parse(ctx, pod, body, keepAlive);
    if (json == null) {
      return;
    }
    String name = json.path("lora_name").asText("");
    if (pod.adapters().remove(name) == null) {
      HttpReplies.error(
          ctx,
          pod,
          keepAlive,
          HttpResponseStatus.NOT_FOUND,
          "NotFoundError",
          "The lora adapter '" + name + "' cannot be found.");
    } else {
      HttpReplies.send(
          ctx,
          pod,
          keepAlive,
          HttpResponseStatus.OK,
          "text/plain",
          "Success: LoRA adapter '" + name + "' removed successfully.");
    }
  }

  static void faults(ChannelHandlerContext ctx, SimPod pod, String body, boolean keepAlive) {
    if (body != null) {
      try {
        pod.setFaults(OpenAiJson.MAPPER.readValue(body, FaultConfig.class));
      } catch (JsonProcessingException e) {
        Throwable c = e.getCause();
        bad(
            ctx,
            pod,
            keepAlive,
            c instanceof IllegalArgumentException
                ? c.getMessage()
                : "invalid faults: " + e.getOriginalMessage());
        return;
      }
    }
    try {
      HttpReplies.json(
          ctx,
          pod,
          keepAlive,
          HttpResponseStatus.OK,
          OpenAiJson.MAPPER.writeValueAsString(pod.faults()));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static JsonNode parse(
      ChannelHandlerContext ctx, SimPod pod, String body, boolean keepAlive) {
    try {
      JsonNode json = OpenAiJson.MAPPER.readTree(body);
      if (json != null && json.isObject()) {
        return json;
      }
    } catch (JsonProcessingException e) {
      // answered below
    }
    bad(ctx, pod, keepAlive, "invalid JSON body (expected an object)");
    return null;
  }

  private static void bad(ChannelHandlerContext ctx, SimPod pod, boolean keepAlive, String msg) {
    HttpReplies.error(ctx, pod, keepAlive, HttpResponseStatus.BAD_REQUEST, "BadRequestError", msg);
  }
}
