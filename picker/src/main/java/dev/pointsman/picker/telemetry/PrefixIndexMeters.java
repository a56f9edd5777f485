package dev.pointsman.picker.telemetry;

import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The approximate prefix index's size against its total bound, and a log line each time the bound
 * starts or stops cutting what the endpoints could remember.
 */
public final class PrefixIndexMeters {
  private static final Logger LOG = LoggerFactory.getLogger(PrefixIndexMeters.class);

  private PrefixIndexMeters() {}

  public static void register(MeterRegistry registry, PrefixIndex index) {
    Gauge.builder("pointsman.prefix.index.blocks", index, PrefixIndex::blocks)
        .description(
            "Prompt blocks the approximate prefix index remembers, over every endpoint (a kept"
                + " block counts the blocks it stands for)")
        .register(registry);
    Gauge.builder("pointsman.prefix.index.keys", index, PrefixIndex::keys)
        .description(
            "Keys the approximate prefix index keeps for those blocks (a long prompt's blocks past"
                + " its head are kept one in 8): what its heap grows with")
        .register(registry);
    Gauge.builder("pointsman.prefix.index.wanted.blocks", index, PrefixIndex::wantedBlocks)
        .description(
            "Blocks the endpoints' own bounds add up to (each what its KV cache holds): what the"
                + " index would remember at most without its total bound")
        .register(registry);
    Gauge.builder("pointsman.prefix.index.max.blocks", index, i -> (double) i.maxBlocks())
        .description("The index's total bound (prefixIndex.maxBlocks)")
        .register(registry);
    index.budgetListener(PrefixIndexMeters::log);
  }

  private static void log(boolean binding, long wanted, long maxBlocks) {
    if (binding) {
      LOG.warn(
          "prefix index: the endpoints' KV caches hold {} blocks, over prefixIndex.maxBlocks {};"
              + " each endpoint's most recent {}% is remembered (more heap, or a higher"
              + " maxBlocks, remembers more: docs/picker.md, \"Memory\")",
          wanted, maxBlocks, Math.round(100.0 * maxBlocks / wanted));
    } else {
      LOG.info(
          "prefix index: the endpoints' KV caches hold {} blocks, within prefixIndex.maxBlocks {}",
          wanted,
          maxBlocks);
    }
  }
}
