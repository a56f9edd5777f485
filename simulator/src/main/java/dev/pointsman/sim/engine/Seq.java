package dev.pointsman.sim.engine;

import java.util.Arrays;

/** The engine's mutable state of one request. Engine-internal; copied for clones. */
final class Seq {
  final SimRequest request;
  final long[] hashes;
  final int promptTokens;
  final double readyMs;
  final long order;
  int computed;
  int generated;
  int[] blocks;
  int numBlocks;
  int registered;
  int cachedTokens = -1;
  int preemptions;
  double firstTokenMs = Double.NaN;
  int scheduled;
  boolean done;

  Seq(SimRequest request, long[] hashes, double readyMs, long order) {
    this.request = request;
    this.hashes = hashes;
    this.promptTokens = request.promptTokens();
    this.readyMs = readyMs;
    this.order = order;
    this.blocks = new int[Math.max(4, hashes.length + 1)];
  }

  private Seq(Seq o) {
    request = o.request;
    hashes = o.hashes;
    promptTokens = o.promptTokens;
    readyMs = o.readyMs;
    order = o.order;
    computed = o.computed;
    generated = o.generated;
    blocks = Arrays.copyOf(o.blocks, o.blocks.length);
    numBlocks = o.numBlocks;
    registered = o.registered;
    cachedTokens = o.cachedTokens;
    preemptions = o.preemptions;
    firstTokenMs = o.firstTokenMs;
    scheduled = o.scheduled;
    done = o.done;
  }

  Seq copy() {
    return new Seq(this);
  }

  /** Tokens whose KV the request needs: prompt plus generated so far. */
  int numTokens() {
    return promptTokens + generated;
  }

  String adapter() {
    return request.adapter();
  }

  void addBlock(int block) {
    if (numBlocks == blocks.length) {
      blocks = Arrays.copyOf(blocks, blocks.length * 2);
    }
    blocks[numBlocks++] = block;
  }
}
