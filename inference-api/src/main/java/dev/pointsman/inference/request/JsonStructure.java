package dev.pointsman.inference.request;

/**
 * Follows a JSON body's structure byte by byte outside strings, to tell whether a string that opens
 * is an object's member name or a value: which open containers are objects (one bit a level up to a
 * bound; deeper levels are counted but not told apart, and the JSON parser refuses a body that
 * deep) and whether a name is due. Malformed input is followed as best it can be; the JSON parser
 * refuses it. Not thread-safe.
 */
final class JsonStructure {
  /** What a byte outside strings did. */
  enum Opened {
    NOTHING,
    NAME,
    VALUE
  }

  private final long[] objects;
  private int depth;
  private boolean expectName;

  /** Tells levels apart up to at least {@code maxDepth}. */
  JsonStructure(int maxDepth) {
    this.objects = new long[maxDepth / 64 + 2];
  }

  /** Takes the next byte outside any string; says whether it is a quote that opens one. */
  Opened outside(byte c) {
    switch (c) {
      case '{' -> push(true);
      case '[' -> push(false);
      case '}', ']' -> {
        depth = Math.max(0, depth - 1);
        expectName = false;
      }
      case ',' -> expectName = inObject();
      case ':' -> expectName = false;
      case '"' -> {
        boolean name = expectName;
        expectName = false;
        return name ? Opened.NAME : Opened.VALUE;
      }
      default -> {}
    }
    return Opened.NOTHING;
  }

  private void push(boolean object) {
    if (depth < objects.length * 64) {
      long bit = 1L << (depth & 63);
      objects[depth >> 6] = object ? objects[depth >> 6] | bit : objects[depth >> 6] & ~bit;
    }
    depth++;
    expectName = object;
  }

  private boolean inObject() {
    int top = depth - 1;
    return top >= 0 && top < objects.length * 64 && (objects[top >> 6] & (1L << (top & 63))) != 0;
  }
}
