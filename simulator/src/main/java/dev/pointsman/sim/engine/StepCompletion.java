package dev.pointsman.sim.engine;

import java.util.Map;

/** Applies the end of a step: computed tokens, new tokens, cached blocks, finished requests. */
final class StepCompletion {
  private final Scheduler sched;
  private final int pod;
  private final EngineListener listener;
  private final Map<Long, Seq> live;

  StepCompletion(Scheduler sched, int pod, EngineListener listener, Map<Long, Seq> live) {
    this.sched = sched;
    this.pod = pod;
    this.listener = listener;
    this.live = live;
  }

  void complete(double now) {
    boolean finishedAny = false;
    for (Seq s : sched.batch) {
      if (!s.done) {
        finishedAny |= advance(s, now);
      }
    }
    sched.batch.clear();
    if (finishedAny) {
      sched.running.removeIf(s -> s.done);
    }
  }

  private boolean advance(Seq s, double now) {
    s.computed += s.scheduled;
    s.scheduled = 0;
    sched.kv.registerFull(s);
    if (s.computed < s.numTokens()) {
      return false;
    }
    s.generated++;
    Stats stats = sched.stats;
    stats.generationTokens++;
    if (Double.isNaN(s.firstTokenMs)) {
      s.firstTokenMs = now;
      stats.promptTokens += s.promptTokens;
      listener.onFirstToken(pod, s.request, now);
    }
    listener.onToken(pod, s.request, s.generated, now);
    if (s.generated < s.request.outputTokens()) {
      return false;
    }
    s.done = true;
    sched.kv.release(s);
    sched.lora.release(s.adapter());
    live.remove(s.request.id());
    stats.finished++;
    listener.onFinish(
        new RequestResult(
            s.request, pod, s.firstTokenMs, now, Math.max(0, s.cachedTokens), s.preemptions));
    return true;
  }
}
