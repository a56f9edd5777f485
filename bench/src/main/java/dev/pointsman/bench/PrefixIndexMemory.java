package dev.pointsman.bench;

import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.config.PrefixIndexSection;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.lang.ref.Reference;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The approximate prefix index's heap, filled to every endpoint's bound: {@code ENDPOINTS
 * [default|none]} endpoints, each sent distinct 62-block prompts until it has seen its bound's
 * worth, under the picker's default total bound for this JVM's heap or none. Prints the blocks
 * remembered and the heap they hold after a full collection (docs/benchmarks.md, "Prefix index
 * memory"). Run it in a JVM of its own with the heap to measure ({@code -Xmx}).
 */
public final class PrefixIndexMemory {
  private static final int PROMPT_BLOCKS = 62; // a 4,000-character prompt

  private PrefixIndexMemory() {}

  public static void main(String[] args) throws InterruptedException {
    if (args.length < 1
        || args.length > 2
        || (args.length == 2 && !args[1].matches("default|none"))) {
      System.err.println("usage: PrefixIndexMemory ENDPOINTS [default|none]");
      System.exit(2);
    }
    int endpoints = Integer.parseInt(args[0]);
    Runtime rt = Runtime.getRuntime();
    long maxBlocks =
        args.length == 2 && args[1].equals("none")
            ? PrefixIndex.UNBOUNDED
            : PrefixIndexSection.DEFAULTS.maxBlocks(rt.maxMemory());
    long before = usedAfterCollection(rt);
    PrefixIndex index =
        new PrefixIndex(
            PickerApp.PREFIX_BLOCKS_PER_ENDPOINT, PrefixIndex.Forgetting.TAIL_FIRST, maxBlocks);
    SplittableRandom random = new SplittableRandom(1);
    long[] blocks = new long[PROMPT_BLOCKS];
    int prompts = PickerApp.PREFIX_BLOCKS_PER_ENDPOINT / PROMPT_BLOCKS + 1;
    for (int e = 0; e < endpoints; e++) {
      String address = "10.0." + (e / 250) + "." + (e % 250) + ":8000";
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
        "endpoints %d, max heap %d MiB, total bound %s: %d blocks remembered of %d wanted,"
            + " %.1f MB of heap, %.1f bytes a block%n",
        endpoints,
        rt.maxMemory() >> 20,
        maxBlocks == PrefixIndex.UNBOUNDED ? "none" : Long.toString(maxBlocks),
        index.blocks(),
        index.wantedBlocks(),
        used / 1e6,
        (double) used / index.blocks());
  }

  private static long usedAfterCollection(Runtime rt) throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(200);
    }
    return rt.totalMemory() - rt.freeMemory();
  }
}
