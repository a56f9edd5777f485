package dev.pointsman.sim.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One pod's draws from an {@link Imperfections} world, as pure functions of the run seed and the
 * pod index: the noise of step k is drawn from a generator seeded by (seed, pod, k), and episode i
 * of stragglers or restarts from one seeded by (seed, pod, kind, i). So the schedule of stragglers
 * and restarts does not depend on what the pod is asked to do (every policy of a benchmark meets
 * the same ones), and a copy of an engine draws exactly what the original would. Not thread-safe.
 */
final class Disturbances {
  private static final long NOISE = 0x6E6F697365L;
  private static final long STRAGGLER = 0x736C6F77L;
  private static final long RESTART = 0x72657374L;

  private final Imperfections world;
  private final long podSeed;
  private final Episodes stragglers;
  private final Episodes restarts;
  private int stragglerCursor;

  Disturbances(Imperfections world, long seed, int pod) {
    this.world = world;
    this.podSeed = mix(seed, pod);
    double slowMs = world.stragglerMaxSlowdown() > 1 ? world.stragglerSeconds() * 1000 : 0;
    this.stragglers =
        new Episodes(
            mix(podSeed, STRAGGLER),
            slowMs > 0 ? world.stragglersPerPodHour() : 0,
            slowMs,
            world.stragglerMinSlowdown(),
            world.stragglerMaxSlowdown());
    this.restarts =
        new Episodes(
            mix(podSeed, RESTART), world.restartsPerPodHour(), world.restartSeconds() * 1000, 1, 1);
  }

  private Disturbances(Disturbances o) {
    world = o.world;
    podSeed = o.podSeed;
    stragglers = o.stragglers.copy();
    restarts = o.restarts.copy();
    stragglerCursor = o.stragglerCursor;
  }

  Disturbances copy() {
    return new Disturbances(this);
  }

  /**
   * The factor step number {@code step} (1-based, per pod) is slowed by when it starts at {@code
   * startMs}: log-normal noise times the slowdown of a straggler episode covering {@code startMs}.
   * Calls must come in non-decreasing {@code startMs}.
   */
  double stepFactor(long step, double startMs) {
    double f = 1;
    double sigma = world.stepNoiseSigma();
    if (sigma > 0) {
      f = Math.exp(sigma * new SplittableRandom(mix(podSeed ^ NOISE, step)).nextGaussian());
    }
    return f * slowdownAt(startMs);
  }

  /** The straggler slowdown at {@code timeMs} (1 outside episodes); non-decreasing times. */
  double slowdownAt(double timeMs) {
    if (!stragglers.active()) {
      return 1;
    }
    while (stragglers.get(stragglerCursor).endMs() <= timeMs) {
      stragglerCursor++;
    }
    Episode e = stragglers.get(stragglerCursor);
    return e.startMs() <= timeMs ? e.factor() : 1;
  }

  /** Restart number {@code i} (0-based); its start is +infinity when restarts are off. */
  Episode restart(int i) {
    return restarts.active() ? restarts.get(i) : Episode.NEVER;
  }

  /** Straggler episode number {@code i} (0-based); +infinity when stragglers are off. */
  Episode straggler(int i) {
    return stragglers.active() ? stragglers.get(i) : Episode.NEVER;
  }

  static long mix(long a, long b) {
    long z = a * 0x9E3779B97F4A7C15L + b;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /**
   * One episode: a straggler's window and slowdown, or a restart's unavailable period.
   *
   * @param startMs when it begins
   * @param endMs when it ends (exclusive)
   * @param factor the slowdown (1 for restarts)
   */
  record Episode(double startMs, double endMs, double factor) {
    static final Episode NEVER = new Episode(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, 1);
  }

  /**
   * A lazily drawn sequence of non-overlapping episodes: the gap before each is exponential with
   * the given rate, counted from the end of the previous one; each lasts {@code lengthMs}.
   */
  private static final class Episodes {
    private final long seed;
    private final double ratePerMs;
    private final double lengthMs;
    private final double minFactor;
    private final double maxFactor;
    private final List<Episode> drawn;

    Episodes(long seed, double perHour, double lengthMs, double minFactor, double maxFactor) {
      this(seed, perHour / 3_600_000, lengthMs, minFactor, maxFactor, new ArrayList<>());
    }

    private Episodes(
        long seed,
        double ratePerMs,
        double lengthMs,
        double minFactor,
        double maxFactor,
        List<Episode> drawn) {
      this.seed = seed;
      this.ratePerMs = ratePerMs;
      this.lengthMs = lengthMs;
      this.minFactor = minFactor;
      this.maxFactor = maxFactor;
      this.drawn = drawn;
    }

    Episodes copy() {
      return new Episodes(seed, ratePerMs, lengthMs, minFactor, maxFactor, new ArrayList<>(drawn));
    }

    boolean active() {
      return ratePerMs > 0;
    }

    Episode get(int i) {
      while (drawn.size() <= i) {
        int n = drawn.size();
        double from = n == 0 ? 0 : drawn.get(n - 1).endMs();
        SplittableRandom r = new SplittableRandom(mix(seed, n));
        double start = from - Math.log(1 - r.nextDouble()) / ratePerMs;
        double factor = minFactor + (maxFactor - minFactor) * r.nextDouble();
        drawn.add(new Episode(start, start + lengthMs, factor));
      }
      return drawn.get(i);
    }
  }
}
