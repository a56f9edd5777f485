package dev.pointsman.sim.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Test helpers: profiles, requests and a single-engine run to completion. */
final class Harness {
  static final GpuProfiles PROFILES = GpuProfiles.builtIn();

  private Harness() {}

  static EngineConfig config(String gpu) {
    return EngineConfig.of("pod", "llama-3-8b", PROFILES.get(gpu)).withApiOverheadMs(0);
  }

  static GpuProfile tiny(int kvBlocks) {
    return PROFILES.get("H100-80").withLimits("tiny", kvBlocks, 512, 64);
  }

  static SimRequest request(long id, double at, int prompt, int output) {
    return SimRequest.of(id, at, List.of(new Segment(1000 + id, prompt)), output);
  }

  /** Runs {@code requests} on one engine until idle; results by request id. */
  static Map<Long, RequestResult> run(EngineConfig config, List<SimRequest> requests) {
    Recorder rec = new Recorder();
    VirtualCluster cluster = new VirtualCluster(List.of(config), rec);
    for (SimRequest r : requests) {
      cluster.runUntil(r.arrivalMs());
      cluster.submit(r, 0);
    }
    cluster.runUntilIdle();
    return rec.results;
  }

  /** Records results and first-token times. */
  static final class Recorder implements EngineListener {
    final Map<Long, RequestResult> results = new LinkedHashMap<>();
    final List<String> events = new ArrayList<>();

    @Override
    public void onFirstToken(int pod, SimRequest request, double timeMs) {
      events.add("first " + request.id() + " @" + timeMs);
    }

    @Override
    public void onFinish(RequestResult result) {
      results.put(result.request().id(), result);
      events.add("finish " + result.request().id() + " @" + result.finishMs());
    }
  }
}
