package dev.pointsman.bench;

import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.config.PrefixIndexSection;
import dev.pointsman.picker.kvevents.KvBlockIndex;
import dev.pointsman.picker.kvevents.KvEvent;
import dev.pointsman.picker.kvevents.KvEventsSettings;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.lang.ref.Reference;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The prefix indexes' heap, filled to every endpoint's bound: {@code ENDPOINTS [default|none]
 * [approximate|precise] [PROMPT_BLOCKS]}. The approximate index: each endpoint sent distinct
 * prompts of 62 blocks (or {@code PROMPT_BLOCKS}; past 512 the picker keeps one in 8) until it has
 * seen its bound's worth. The precise index ({@link KvBlockIndex}): each endpoint's engine storing
 * chains of 62 distinct 16-token blocks until it has stored its bound's worth. Under the picker's
 * default total bound for this JVM's heap, or none. Prints the blocks kept and the heap they hold
 * after a full collection (docs/benchmarks.md, "Prefix index memory"). Run it in a JVM of its own
 * with the heap to measure ({@code -Xmx}).
 */
public final class PrefixIndexMemory {
  private static final int PROMPT_BLOCKS = 62; // a 4,000-character prompt

  private PrefixIndexMemory() {}

  public static void main(String[] args) {
    if (args.length < 1
        || args.length > 4
        || (args.length >= 2 && !args[1].matches("default|none"))
        || (args.length >= 3 && !args[2].matches("approximate|precise"))
        || (args.length == 4 && !args[3].matches("[1-9][0-9]*"))) {
      System.err.println(
          "usage: PrefixIndexMemory ENDPOINTS [default|none] [approximate|precise]"
              + " [PROMPT_BLOCKS]");
      System.exit(2);
    }
    int endpoints = Integer.parseInt(args[0]);
    boolean bounded = args.length < 2 || args[1].equals("default");
    int promptBlocks = args.length == 4 ? Integer.parseInt(args[3]) : PROMPT_BLOCKS;
    if (args.length >= 3 && args[2].equals("precise")) {
      precise(endpoints, bounded);
      return;
    }
    Runtime rt = Runtime.getRuntime();
    long maxBlocks =
        bounded ? PrefixIndexSection.DEFAULTS.maxBlocks(rt.maxMemory()) : PrefixIndex.UNBOUNDED;
    long before = usedAfterCollection(rt);
    PrefixIndex index =
        new PrefixIndex(
            PickerApp.PREFIX_BLOCKS_PER_ENDPOINT,
            PrefixIndex.Forgetting.TAIL_FIRST,
            maxBlocks,
            PickerApp.PREFIX_CHECKPOINTS);
    SplittableRandom random = new SplittableRandom(1);
    long[] blocks = new long[promptBlocks];
    int prompts = PickerApp.PREFIX_BLOCKS_PER_ENDPOINT / promptBlocks + 1;
    for (int e = 0; e < endpoints; e++) {
      String address = address(e);
      for (int p = 0; p < prompts; p++) {
        for (int i = 0; i < blocks.length; i++) {
          blocks[i] = random.nextLong();
        }
        index.record(address, blocks);
      }
    }
    long used = usedAfterCollection(rt) - before;
    Reference.reachabilityFence(index);
    System.out.printf(
        Locale.ROOT,
        "endpoints %d, prompts of %d blocks, max heap %d MiB, total bound %s: %d blocks"
            + " remembered of %d wanted, in %d keys, %.1f MB of heap, %.1f bytes a block%n",
        endpoints,
        promptBlocks,
        rt.maxMemory() >> 20,
        maxBlocks == PrefixIndex.UNBOUNDED ? "none" : Long.toString(maxBlocks),
        index.blocks(),
        index.wantedBlocks(),
        index.keys(),
        used / 1e6,
        (double) used / index.blocks());
  }

  /** The precise index, each endpoint's engine storing chains of distinct blocks. */
  private static void precise(int endpoints, boolean bounded) {
    Runtime rt = Runtime.getRuntime();
    int perEndpoint = KvEventsSettings.DEFAULT_MAX_BLOCKS;
    long maxBlocks =
        bounded ? PrefixIndexSection.DEFAULTS.maxEngineBlocks(rt.maxMemory()) : Long.MAX_VALUE;
    long before = usedAfterCollection(rt);
    KvBlockIndex index = new KvBlockIndex(perEndpoint, maxBlocks);
    SplittableRandom random = new SplittableRandom(1);
    int blockSize = 16;
    long[] hashes = new long[PROMPT_BLOCKS];
    int[] tokens = new int[PROMPT_BLOCKS * blockSize];
    long hash = 0;
    for (int e = 0; e < endpoints; e++) {
      String address = address(e);
      for (int chain = 0; chain < perEndpoint / PROMPT_BLOCKS + 1; chain++) {
        for (int i = 0; i < hashes.length; i++) {
          hashes[i] = ++hash;
        }
        for (int i = 0; i < tokens.length; i++) {
          tokens[i] = random.nextInt(128_000);
        }
        index.apply(
            address,
            List.of(new KvEvent.BlockStored(hashes, null, tokens, blockSize, null, "GPU")));
      }
    }
    long used = usedAfterCollection(rt) - before;
    Reference.reachabilityFence(index);
    System.out.printf(
        Locale.ROOT,
        "precise index: endpoints %d, max heap %d MiB, total bound %s: %d blocks kept,"
            + " %.1f MB of heap, %.1f bytes a block%n",
        endpoints,
        rt.maxMemory() >> 20,
        bounded ? Long.toString(maxBlocks) : "none",
        index.blocks(),
        used / 1e6,
        (double) used / index.blocks());
  }

  /** The {@code e}-th endpoint's address. */
  private static String address(int e) {
    return "10.0." + (e / 250) + "." + (e % 250) + ":8000";
  }

  /**
   * Heap in use after full collections: {@code System.gc()} runs one to the end with G1 (without
   * {@code -XX:+ExplicitGCInvokesConcurrent}), the second and third collect what the first freed
   * only by reference processing.
   */
  private static long usedAfterCollection(Runtime rt) {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return rt.totalMemory() - rt.freeMemory();
  }
}
