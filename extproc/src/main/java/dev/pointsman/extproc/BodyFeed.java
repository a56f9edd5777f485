package dev.pointsman.extproc;

import com.google.protobuf.ByteOutput;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import dev.pointsman.inference.request.BodyAccumulator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * Feeds a body chunk to its {@link BodyAccumulator} without copying it: a flat {@link ByteString}
 * (what gRPC's parser makes of every {@code HttpBody}) hands over its own array, which the
 * accumulator reads during the call and neither keeps nor writes. Going through {@code
 * asReadOnlyByteBuffer()} instead gave a buffer without an array, copied through a 16 KiB scratch
 * buffer per request. A chunk that is not one piece (a rope) takes the accumulator's own path, so
 * its size is still checked as a whole before any of it is read. Not thread-safe: one per stream.
 */
final class BodyFeed extends ByteOutput {
  private static final byte[] EMPTY = new byte[0];

  private final BodyAccumulator body;
  private int expected;
  private boolean fed;
  private boolean whole;

  BodyFeed(BodyAccumulator body) {
    this.body = body;
  }

  /** Parses {@code chunk}; the accumulator's rejections propagate as they are. */
  void feed(ByteString chunk) {
    int size = chunk.size();
    if (size == 0) {
      body.feed(EMPTY, 0, 0);
      return;
    }
    expected = size;
    fed = false;
    whole = true;
    try {
      UnsafeByteOperations.unsafeWriteTo(chunk, this);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // this output never throws it
    }
    if (!fed) {
      body.feed(chunk.asReadOnlyByteBuffer());
    }
  }

  /** True for the first piece when it is the whole chunk; every later call, false. */
  private boolean onePiece(int length) {
    boolean first = whole && !fed && length == expected;
    whole = false;
    return first;
  }

  @Override
  public void writeLazy(byte[] value, int offset, int length) {
    if (onePiece(length)) {
      fed = true;
      body.feed(value, offset, length);
    }
  }

  @Override
  public void write(byte[] value, int offset, int length) {
    writeLazy(value, offset, length);
  }

  @Override
  public void writeLazy(ByteBuffer value) {
    if (onePiece(value.remaining())) {
      fed = true;
      body.feed(value);
    }
  }

  @Override
  public void write(ByteBuffer value) {
    writeLazy(value);
  }

  @Override
  public void write(byte value) {
    whole = false; // never the whole of a non-empty chunk: the accumulator's own path
  }
}
