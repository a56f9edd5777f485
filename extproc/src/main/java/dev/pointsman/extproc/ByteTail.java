package dev.pointsman.extproc;

import com.google.protobuf.ByteString;

/** Keeps the last {@code capacity} bytes of a stream, for reading {@code usage} at its end. */
final class ByteTail {
  private final byte[] ring;
  private long written;

  ByteTail(int capacity) {
    this.ring = new byte[capacity];
  }

  void append(ByteString data) {
    int n = data.size();
    int from = Math.max(0, n - ring.length);
    for (int i = from; i < n; ) {
      int pos = (int) (written % ring.length);
      int len = Math.min(n - i, ring.length - pos);
      data.copyTo(ring, i, pos, len);
      i += len;
      written += len;
    }
    written += from;
  }

  /** The retained bytes, oldest first. */
  byte[] toArray() {
    int len = (int) Math.min(written, ring.length);
    byte[] out = new byte[len];
    int start = (int) ((written - len) % ring.length);
    int first = Math.min(len, ring.length - start);
    System.arraycopy(ring, start, out, 0, first);
    System.arraycopy(ring, 0, out, first, len - first);
    return out;
  }
}
