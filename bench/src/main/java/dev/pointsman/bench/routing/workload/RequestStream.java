package dev.pointsman.bench.routing.workload;

import dev.pointsman.bench.routing.scenario.LoraMix;
import dev.pointsman.bench.routing.scenario.Scenario;
import dev.pointsman.bench.routing.scenario.WorkloadPart;
import dev.pointsman.sim.engine.Segment;
import dev.pointsman.sim.engine.ShareGptLengths;
import dev.pointsman.sim.engine.SimRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generates a scenario's request stream for one rate and seed: deterministic, so every policy runs
 * on exactly the same requests. Each concern (arrivals, mix, lengths, adapters) draws from its own
 * split of the seed's generator, so changing one does not reshuffle the others.
 */
public final class RequestStream {
  private static final int NS_SYSTEM = 1;
  private static final int NS_DOCUMENT = 2;

  private RequestStream() {}

  /** Requests arriving in [0, durationMs) at a mean of {@code ratePerSecond}. */
  public static List<BenchRequest> generate(
      Scenario scenario, double ratePerSecond, double durationMs, long seed) {
    return generate(scenario, ratePerSecond, durationMs, seed, Integer.MAX_VALUE);
  }

  /** At most {@code maxRequests} requests arriving in [0, durationMs). */
  public static List<BenchRequest> generate(
      Scenario scenario, double ratePerSecond, double durationMs, long seed, int maxRequests) {
    if (scenario.trace() != null) {
      return TraceStream.generate(scenario, ratePerSecond, durationMs, seed, maxRequests);
    }
    SplittableRandom root = new SplittableRandom(seed);
    SplittableRandom arrivalRandom = root.split();
    SplittableRandom mixRandom = root.split();
    SplittableRandom lengthRandom = root.split();
    SplittableRandom loraRandom = root.split();
    SplittableRandom contentRandom = root.split();
    SplittableRandom streamRandom = root.split();
    double streamed = scenario.production().streamedFraction();
    ShareGptLengths lengths = new ShareGptLengths(lengthRandom);
    List<WorkloadPart> parts = scenario.workload();
    Timeline arrivals =
        new Timeline(scenario.arrival(), parts, ratePerSecond, arrivalRandom, mixRandom, seed);
    List<Sessions> sessions = new ArrayList<>();
    List<Sampler> documents = new ArrayList<>();
    for (int p = 0; p < parts.size(); p++) {
      WorkloadPart part = parts.get(p);
      sessions.add(new Sessions(part, ContentIds.shared(NS_SYSTEM, p, 0)));
      documents.add("rag".equals(part.kind()) ? Sampler.zipf(part.documents(), part.zipf()) : null);
    }
    LoraMix lora = scenario.lora();
    Sampler adapters = lora == null ? null : new Sampler(lora.adapterWeights());
    ContentIds ids = new ContentIds();
    ContextLimit limit = ServedContext.limit(scenario);
    List<BenchRequest> out = new ArrayList<>();
    for (long id = 0; ; id++) {
      double t = arrivals.next();
      if (t >= durationMs || out.size() >= maxRequests) {
        break;
      }
      int p = arrivals.part();
      WorkloadPart part = parts.get(p);
      List<Segment> prompt;
      int output;
      boolean cut = false;
      SplittableRandom adapterRandom = loraRandom;
      long outputContent = ids.fresh();
      switch (part.kind()) {
        case "shared-prefix" -> {
          int g = contentRandom.nextInt(part.groups());
          prompt =
              List.of(
                  new Segment(ContentIds.shared(NS_SYSTEM, p, g), part.systemTokens()),
                  new Segment(ids.fresh(), part.questionTokens()));
          output = part.outputTokens();
        }
        case "multi-turn" -> {
          Sessions.Turn turn = sessions.get(p).next(t, contentRandom, lengths, ids, limit);
          prompt = turn.prompt();
          output = turn.outputTokens();
          cut = turn.cut();
          outputContent = turn.outputContent();
          adapterRandom = new SplittableRandom(turn.sessionSeed());
        }
        case "rag" -> {
          int d = documents.get(p).next(contentRandom);
          List<Segment> segs = new ArrayList<>(3);
          if (part.systemTokens() > 0) {
            segs.add(new Segment(ContentIds.shared(NS_SYSTEM, p, 0), part.systemTokens()));
          }
          segs.add(new Segment(ContentIds.shared(NS_DOCUMENT, p, d), part.documentTokens()));
          segs.add(new Segment(ids.fresh(), part.questionTokens()));
          prompt = segs;
          output = lengths.unlimitedOutput();
        }
        default -> {
          int in = lengths.input();
          prompt = List.of(new Segment(ids.fresh(), in));
          output = lengths.unlimitedOutput();
        }
      }
      if (!cut) {
        ContextLimit.Fit fit = limit.fit(prompt, output);
        prompt = fit.prompt();
        output = fit.outputTokens();
        cut = fit.cut();
      }
      String adapter = "";
      if (adapters != null && adapterRandom.nextDouble() < lora.fraction()) {
        adapter = LoraMix.adapterName(adapters.next(adapterRandom));
      }
      boolean sheddable = mixRandom.nextDouble() < scenario.sheddableFraction();
      if (part.priority() != null) {
        sheddable = part.priority() < 0; // the part's objective decides
      }
      SimRequest sim = new SimRequest(id, t, prompt, output, adapter, outputContent);
      // drawn for every request, so that the share does not reshuffle anything else
      boolean stream = streamRandom.nextDouble() < streamed;
      out.add(
          new BenchRequest(
              sim, part.kind(), sheddable, stream, cut, part.tenant(), part.priority()));
    }
    return out;
  }
}
