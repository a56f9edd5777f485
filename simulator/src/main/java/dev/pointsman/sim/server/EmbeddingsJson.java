package dev.pointsman.sim.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.SplittableRandom;

/**
 * {@code /v1/embeddings} answers: one unit vector per input, the same for the same input text and
 * length on every pod and every run (seeded by a hash of the text), so clients can test similarity
 * code against the simulator. Thread-safe.
 */
final class EmbeddingsJson {
  private EmbeddingsJson() {}

  /** The unit vector of {@code input}. */
  static float[] vector(String input, int dimensions) {
    SplittableRandom random = new SplittableRandom(fnv1a(input));
    float[] v = new float[dimensions];
    double norm = 0;
    for (int i = 0; i < dimensions; i++) {
      double x = random.nextGaussian();
      v[i] = (float) x;
      norm += x * x;
    }
    float scale = (float) (1 / Math.sqrt(norm));
    for (int i = 0; i < dimensions; i++) {
      v[i] *= scale;
    }
    return v;
  }

  static String response(EmbeddingCall call) {
    ObjectNode root = OpenAiJson.MAPPER.createObjectNode().put("object", "list");
    ArrayNode data = root.putArray("data");
    int tokens = 0;
    for (int i = 0; i < call.inputs().size(); i++) {
      float[] v = vector(call.inputs().get(i), call.dimensions());
      ObjectNode e = data.addObject().put("object", "embedding").put("index", i);
      if (call.base64()) {
        ByteBuffer b = ByteBuffer.allocate(v.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : v) {
          b.putFloat(f);
        }
        e.put("embedding", Base64.getEncoder().encodeToString(b.array()));
      } else {
        ArrayNode values = e.putArray("embedding");
        for (float f : v) {
          values.add(f);
        }
      }
      tokens += call.tokens().get(i);
    }
    root.put("model", call.model());
    root.putObject("usage").put("prompt_tokens", tokens).put("total_tokens", tokens);
    return root.toString();
  }

  private static long fnv1a(String s) {
    long h = 0xcbf29ce484222325L;
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    return h;
  }
}
