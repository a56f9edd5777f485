package dev.pointsman.cli.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The demo's request stream: bursty (a square wave around the mean rate) and prefix-sharing (groups
 * of users behind the same long system prompt), a fifth of it on a LoRA adapter. Seeded, so both
 * phases of the demo send exactly the same requests at the same offsets.
 */
final class DemoTraffic {
  /** One request: when to send it (ms from the phase start) and its JSON body. */
  record Planned(double atMs, String body, String model) {}

  private static final String[] TOPICS = {
    "a support assistant for a cloud storage product",
    "a SQL tutor for analysts",
    "a travel planner for business trips",
    "a code reviewer for Java services",
    "a legal-document summariser",
    "a friendly customer-onboarding guide",
  };

  private DemoTraffic() {}

  /**
   * @param seconds how long the phase lasts
   * @param meanRate mean requests per second
   * @param baseModel the base model's name
   * @param adapter a LoRA adapter's name
   */
  static List<Planned> plan(
      long seed, double seconds, double meanRate, String baseModel, String adapter) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<String> systemPrompts = new ArrayList<>();
    for (String topic : TOPICS) {
      systemPrompts.add(systemPrompt(topic, rnd));
    }
    List<Planned> out = new ArrayList<>();
    double t = 0;
    int n = 0;
    while (true) {
      // 2 s at 3x the mean, then 4 s at 0.5x: a burst every 6 s, same mean
      double phase = t % 6_000;
      double rate = phase < 2_000 ? 3 * meanRate / 1.333 : 0.5 * meanRate / 1.333;
      t += -Math.log(1 - rnd.nextDouble()) * 1_000 / rate;
      if (t >= seconds * 1_000) {
        return out;
      }
      boolean lora = rnd.nextInt(5) == 0;
      String model = lora ? adapter : baseModel;
      String system = systemPrompts.get(rnd.nextInt(systemPrompts.size()));
      out.add(new Planned(t, body(model, system, question(rnd, n++)), model));
    }
  }

  private static String systemPrompt(String topic, SplittableRandom rnd) {
    StringBuilder sb = new StringBuilder("You are " + topic + ". ");
    while (sb.length() < 4_000) {
      sb.append("Rule ")
          .append(rnd.nextInt(1000))
          .append(": answer precisely, cite the policy, ")
          .append("keep a calm tone, never invent facts, and ask before assuming. ");
    }
    return sb.toString();
  }

  private static String question(SplittableRandom rnd, int n) {
    return "Question "
        + n
        + " ("
        + Long.toHexString(rnd.nextLong())
        + "): how should I handle case "
        + rnd.nextInt(10_000)
        + " today?";
  }

  private static String body(String model, String system, String user) {
    return "{\"model\":\""
        + model
        + "\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
        + "\"max_tokens\":24,\"messages\":[{\"role\":\"system\",\"content\":\""
        + system
        + "\"},"
        + "{\"role\":\"user\",\"content\":\""
        + user
        + "\"}]}";
  }
}
