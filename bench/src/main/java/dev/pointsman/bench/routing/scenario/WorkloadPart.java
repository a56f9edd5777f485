package dev.pointsman.bench.routing.scenario;

import java.util.Set;

/**
 * One kind of traffic in a scenario's mix. Fields that a kind does not use are ignored.
 *
 * <ul>
 *   <li>{@code sharegpt}: one unique prompt, ShareGPT-like input and output lengths.
 *   <li>{@code shared-prefix}: {@code groups} long system prompts of {@code systemTokens}, each
 *       request one group's prompt plus a unique question of {@code questionTokens}, answer of
 *       {@code outputTokens}.
 *   <li>{@code multi-turn}: chat sessions of {@code minTurns..maxTurns} turns sharing a system
 *       prompt of {@code systemTokens}; turn k+1 = turn k's prompt + its answer + a new question
 *       (ShareGPT-like lengths), at least {@code thinkSeconds} (mean, exponential) after turn k; a
 *       session ends early when its context would pass {@code maxContextTokens}.
 *   <li>{@code rag}: a shared instruction of {@code systemTokens}, one of {@code documents}
 *       documents of {@code documentTokens} (Zipf({@code zipf}) popularity), a unique question of
 *       {@code questionTokens}; ShareGPT-like answer.
 * </ul>
 *
 * <p>Any kind may name a {@code tenant} (the fairness id its requests carry, for flow control) and
 * an objective {@code priority} (negative: sheddable; its requests name an objective of that
 * priority). Both are unset by default: the requests carry neither, as before.
 *
 * <p>A part may also have its own {@code arrival} process (a tenant bursting on its own schedule):
 * its requests then arrive by that process at its share of the rate ({@code weight} over the sum of
 * weights), merged in time with the scenario's process, which carries the other parts at theirs.
 * Unset by default: every part shares the scenario's process, as before.
 */
public record WorkloadPart(
    String kind,
    Double weight,
    Integer groups,
    Integer systemTokens,
    Integer questionTokens,
    Integer outputTokens,
    Integer documents,
    Integer documentTokens,
    Double zipf,
    Integer minTurns,
    Integer maxTurns,
    Double thinkSeconds,
    Integer maxContextTokens,
    String tenant,
    Integer priority,
    ArrivalSpec arrival) {

  public static final Set<String> KINDS = Set.of("sharegpt", "shared-prefix", "multi-turn", "rag");

  public WorkloadPart {
    if (kind == null || !KINDS.contains(kind)) {
      throw new IllegalArgumentException(
          "kind: '" + kind + "' (expected one of " + KINDS.stream().sorted().toList() + ")");
    }
    weight = Check.positive("weight", weight, 1.0);
    groups = Check.atLeast("groups", groups, 150, 1);
    systemTokens = Check.atLeast("systemTokens", systemTokens, defaultSystem(kind), 0);
    questionTokens = Check.atLeast("questionTokens", questionTokens, defaultQuestion(kind), 1);
    outputTokens = Check.atLeast("outputTokens", outputTokens, 1000, 1);
    documents = Check.atLeast("documents", documents, 200, 1);
    documentTokens = Check.atLeast("documentTokens", documentTokens, 2000, 1);
    zipf = Check.nonNegative("zipf", zipf, 1.0);
    minTurns = Check.atLeast("minTurns", minTurns, 2, 1);
    maxTurns = Check.atLeast("maxTurns", maxTurns, Math.max(minTurns, 8), minTurns);
    thinkSeconds = Check.nonNegative("thinkSeconds", thinkSeconds, 10.0);
    maxContextTokens = Check.atLeast("maxContextTokens", maxContextTokens, 8000, 64);
    if (tenant != null && (tenant.isBlank() || !tenant.matches("[A-Za-z0-9._-]{1,64}"))) {
      throw new IllegalArgumentException(
          "tenant: '" + tenant + "' (expected 1-64 of letters, digits, '.', '_', '-')");
    }
    if (priority != null && (priority < -100 || priority > 100)) {
      throw new IllegalArgumentException("priority: " + priority + " (expected -100..100)");
    }
  }

  public static WorkloadPart of(String kind) {
    return new WorkloadPart(
        kind, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
        null);
  }

  private static int defaultSystem(String kind) {
    return switch (kind) {
      case "shared-prefix" -> 6000;
      case "multi-turn" -> 300;
      case "rag" -> 100;
      default -> 0;
    };
  }

  private static int defaultQuestion(String kind) {
    return switch (kind) {
      case "shared-prefix" -> 1200;
      case "rag" -> 80;
      default -> 100;
    };
  }
}
