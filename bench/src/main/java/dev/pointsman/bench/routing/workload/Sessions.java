package dev.pointsman.bench.routing.workload;

import dev.pointsman.bench.routing.scenario.WorkloadPart;
import dev.pointsman.sim.engine.Segment;
import dev.pointsman.sim.engine.ShareGptLengths;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.random.RandomGenerator;

/**
 * Multi-turn chat sessions with growing context, on a fixed arrival schedule so that every policy
 * sees the same stream: a multi-turn arrival continues the session that has been ready longest (its
 * previous turn arrived at least its think time ago), else it starts a new session. A turn's prompt
 * is the previous turn's prompt, its answer and a new question.
 */
final class Sessions {
  private final WorkloadPart part;
  private final long systemContent;
  private final PriorityQueue<Session> ready =
      new PriorityQueue<>((a, b) -> Double.compare(a.readyMs, b.readyMs));

  Sessions(WorkloadPart part, long systemContent) {
    this.part = part;
    this.systemContent = systemContent;
  }

  /** The next turn arriving at {@code nowMs}: segments, output tokens and output content id. */
  Turn next(
      double nowMs,
      RandomGenerator random,
      ShareGptLengths lengths,
      ContentIds ids,
      ContextLimit limit) {
    Session s = ready.peek();
    if (s != null && s.readyMs <= nowMs) {
      ready.poll();
    } else {
      s = new Session(random.nextInt(part.minTurns(), part.maxTurns() + 1), random.nextLong());
      if (part.systemTokens() > 0) {
        s.context.add(new Segment(systemContent, part.systemTokens()));
        s.tokens = part.systemTokens();
      }
    }
    int question = lengths.input();
    List<Segment> asked = new ArrayList<>(s.context);
    asked.add(new Segment(ids.fresh(), question));
    ContextLimit.Fit fit = limit.fit(asked, lengths.unlimitedOutput());
    List<Segment> prompt = fit.prompt();
    int output = fit.outputTokens();
    long outputContent = ids.fresh();
    Turn turn = new Turn(prompt, output, outputContent, s.seed, fit.cut());
    s.context = new ArrayList<>(prompt);
    s.context.add(new Segment(outputContent, output));
    s.tokens = 0;
    for (Segment seg : s.context) {
      s.tokens += seg.length();
    }
    s.turnsLeft--;
    double think = -Math.log(1.0 - random.nextDouble()) * part.thinkSeconds() * 1000;
    s.readyMs = nowMs + think;
    if (s.turnsLeft > 0 && s.tokens + 1024 + 2048 <= part.maxContextTokens()) {
      ready.add(s);
    }
    return turn;
  }

  /**
   * One turn; {@code sessionSeed} keeps per-session choices (the adapter) stable; {@code cut} says
   * the turn was cut to the model's context length.
   */
  record Turn(
      List<Segment> prompt, int outputTokens, long outputContent, long sessionSeed, boolean cut) {}

  private static final class Session {
    List<Segment> context = new ArrayList<>();
    int tokens;
    int turnsLeft;
    double readyMs;
    final long seed;

    Session(int turns, long seed) {
      this.turnsLeft = turns;
      this.seed = seed;
    }
  }
}
