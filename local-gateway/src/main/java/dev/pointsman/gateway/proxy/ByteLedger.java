package dev.pointsman.gateway.proxy;

import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The bytes of one direction sent to the picker and not yet echoed back, kept (retained, not
 * copied) so that the exchange can continue unprocessed if the picker goes away, and counted so
 * that reading can stop while too much is outstanding. Past {@code limit} the copies are dropped
 * and only the count remains. Confined to the request's event loop.
 */
final class ByteLedger {
  private final ArrayDeque<ByteBuf> held = new ArrayDeque<>();
  private final long limit;
  private long heldBytes;
  private long outstanding;
  private boolean overflowed;

  ByteLedger(long limit) {
    this.limit = limit;
  }

  /** Records {@code chunk} as sent to the picker. */
  void sent(ByteBuf chunk) {
    int n = chunk.readableBytes();
    outstanding += n;
    if (overflowed || n == 0) {
      return;
    }
    if (heldBytes + n > limit) {
      overflowed = true;
      releaseHeld();
      return;
    }
    held.add(chunk.retainedSlice());
    heldBytes += n;
  }

  /** Records {@code n} bytes as echoed back by the picker. */
  void echoed(long n) {
    outstanding = Math.max(0, outstanding - n);
    long left = n;
    while (left > 0 && !held.isEmpty()) {
      ByteBuf head = held.peek();
      int r = head.readableBytes();
      if (r <= left) {
        held.poll().release();
        left -= r;
        heldBytes -= r;
      } else {
        head.skipBytes((int) left);
        heldBytes -= left;
        left = 0;
      }
    }
  }

  /** Bytes sent and not yet echoed. */
  long outstanding() {
    return outstanding;
  }

  /** Whether the unechoed bytes are still all here. */
  boolean recoverable() {
    return !overflowed;
  }

  /** Hands over the unechoed bytes (the caller releases them) and forgets them. */
  List<ByteBuf> takeUnechoed() {
    List<ByteBuf> out = new ArrayList<>(held);
    held.clear();
    heldBytes = 0;
    outstanding = 0;
    return out;
  }

  void release() {
    releaseHeld();
    outstanding = 0;
  }

  private void releaseHeld() {
    held.forEach(ByteBuf::release);
    held.clear();
    heldBytes = 0;
  }
}
