package dev.pointsman.sim.server;

import dev.pointsman.sim.engine.BlockHashes;
import dev.pointsman.sim.engine.Segment;
import java.util.ArrayList;
import java.util.List;

/**
 * Maps prompt text to engine segments: the text is cut into 64-character chunks (≈16 tokens, one KV
 * block) whose content ids are chained hashes of the text so far, so that requests sharing a text
 * prefix share KV blocks. A chunk of {@code n} characters counts {@code ceil(n/4)} tokens.
 */
final class PromptMapper {
  static final int CHUNK_CHARS = 64;

  private PromptMapper() {}

  static List<Segment> segments(String text) {
    String t = text.isEmpty() ? " " : text;
    List<Segment> out = new ArrayList<>(t.length() / CHUNK_CHARS + 1);
    long id = 0x5EED;
    for (int start = 0; start < t.length(); start += CHUNK_CHARS) {
      String chunk = t.substring(start, Math.min(t.length(), start + CHUNK_CHARS));
      id = BlockHashes.combine(id, BlockHashes.of(chunk));
      out.add(new Segment(id, (chunk.length() + 3) / 4));
    }
    return out;
  }
}
