package dev.pointsman.inference.request;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
import dev.pointsman.inference.error.RejectReason;
import dev.pointsman.inference.error.RequestRejectedException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * Parses one request body incrementally as its chunks arrive: {@link #feed} each chunk, then {@link
 * #finish}. Chunks are parsed during {@code feed} and not retained, so the caller keeps (and may
 * forward) its own copies; an array passed to {@code feed} may be reused once the call returns. A
 * body over the size limit is rejected by the {@code feed} that would pass it, before that chunk is
 * read. Every byte is checked to be UTF-8 as it is fed ({@link BodyScan}), and the JSON parser is
 * given whole characters ({@link BodyScan}) cut where it resumes correctly ({@link SeparatorHold}),
 * so the outcome does not depend on where the chunks were cut. The content of a value string taken
 * out of the parser's way ({@link ValueStrings}) is taken by the scan's {@link BodyScan.Handoff}
 * where it can be, so that most bytes are looked at once. After a rejection every call throws the
 * same exception. Not thread-safe: one per request.
 */
public final class BodyAccumulator implements AutoCloseable {
  private static final int SCRATCH_BYTES = 16 << 10;

  private final JsonParser parser;
  private final ByteArrayFeeder feeder;
  private final RequestExtractor extractor;
  private final BodyScan scan;
  private final SeparatorHold separators = new SeparatorHold();
  private final ValueStrings strings;
  private final BodyScan.Sink toSeparators =
      (bytes, offset, length) -> separators.feed(bytes, offset, length, this::parseComplete);
  private final BodyScan.Handoff handoff;
  private final ApiKind kind;
  private final long maxBodyBytes;
  private long fed;
  private long passed;
  private long declared = -1;
  private boolean begun;
  private byte[] scratch;
  private RequestRejectedException failure;
  private ParsedRequest result;
  private boolean closed;

  BodyAccumulator(JsonParser parser, ParserLimits limits, ApiKind kind) {
    this(parser, limits, kind, true);
  }

  /**
   * {@code elide}: whether string content is taken out of the JSON parser's way ({@link
   * ValueStrings}: prompt text decoded straight into the extractor, content nobody reads skipped);
   * off only to check that doing so changes nothing.
   */
  BodyAccumulator(JsonParser parser, ParserLimits limits, ApiKind kind, boolean elide) {
    this.parser = parser;
    this.strings = new ValueStrings(limits.maxDepth());
    this.feeder = (ByteArrayFeeder) parser.getNonBlockingInputFeeder();
    this.extractor = new RequestExtractor(limits);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.maxBodyBytes = limits.maxBodyBytes();
    this.scan = new BodyScan(limits.maxDepth());
    this.handoff = elide ? this::takeOutFromScan : null;
  }

  /** Parses a whole chunk. */
  public void feed(byte[] chunk) {
    feed(chunk, 0, chunk.length);
  }

  /** Parses {@code length} bytes of {@code chunk} from {@code offset}. */
  public void feed(byte[] chunk, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, chunk.length);
    admit(length);
    parse(chunk, offset, length);
  }

  /** Parses the remaining bytes of {@code chunk} without moving its position. */
  public void feed(ByteBuffer chunk) {
    int length = chunk.remaining();
    if (chunk.hasArray()) {
      feed(chunk.array(), chunk.arrayOffset() + chunk.position(), length);
      return;
    }
    admit(length);
    if (scratch == null) {
      scratch = new byte[SCRATCH_BYTES];
    }
    for (int done = 0; done < length; ) {
      int n = Math.min(scratch.length, length - done);
      chunk.get(chunk.position() + done, scratch, 0, n);
      parse(scratch, 0, n);
      done += n;
    }
  }

  /**
   * The body's declared length ({@code content-length}), or -1: a hint to size the kept prompt text
   * once, never trusted for limits (a body longer or shorter than declared parses the same).
   */
  public BodyAccumulator expectLength(long bytes) {
    declared = bytes;
    return this;
  }

  /** Ends the body and returns what was parsed; may be called again for the same result. */
  public ParsedRequest finish() {
    if (result != null) {
      return result;
    }
    checkNotFailed();
    if (closed) {
      throw new IllegalStateException("closed");
    }
    try {
      scan.finish(toSeparators);
      separators.finish(this::parseComplete);
    } catch (IOException e) {
      throw fail(JsonFailures.rejection(e, strings.takenBytes()));
    } catch (RequestRejectedException e) {
      throw fail(e);
    }
    try {
      if (!extractor.isDone()) {
        toParser(strings.held(), 0, strings.release());
        feeder.endOfInput();
        drain();
      }
      if (!extractor.isDone()) {
        throw extractor.isStarted()
            ? new RequestRejectedException(
                RejectReason.TRUNCATED, "request body ends inside the JSON object")
            : new RequestRejectedException(
                RejectReason.EMPTY_BODY, "request body is empty (expected a JSON object)");
      }
      result = extractor.result(kind);
      close();
      return result;
    } catch (IOException e) {
      throw fail(JsonFailures.truncation(e, strings.takenBytes()));
    } catch (RequestRejectedException e) {
      throw fail(e);
    }
  }

  /** How many body bytes have been accepted so far. */
  public long bytesFed() {
    return fed;
  }

  /** How many bytes of string content were taken out of the JSON parser's way. */
  long bytesTakenOut() {
    return strings.takenBytes();
  }

  /** Releases the parser's buffers; further feeding is an error. */
  @Override
  public void close() {
    closed = true;
    try {
      parser.close();
    } catch (IOException e) {
      // nothing is held that could fail to close
    }
  }

  private void admit(int length) {
    checkNotFailed();
    if (closed) {
      throw new IllegalStateException(result != null ? "body already finished" : "closed");
    }
    if (length > maxBodyBytes - fed) {
      throw fail(
          new RequestRejectedException(
              RejectReason.TOO_LARGE,
              "request body is larger than the limit of " + maxBodyBytes + " bytes"));
    }
    fed += length;
  }

  private void parse(byte[] bytes, int offset, int length) {
    if (length == 0) {
      return;
    }
    try {
      scan.feed(bytes, offset, length, toSeparators, handoff);
    } catch (IOException e) {
      throw fail(JsonFailures.rejection(e, strings.takenBytes()));
    } catch (RequestRejectedException e) {
      throw fail(e);
    }
  }

  /** Parses complete characters; the bytes after the root object are checked, not parsed. */
  private void parseComplete(byte[] bytes, int offset, int length) throws IOException {
    long at = passed;
    passed += length;
    int end = offset + length;
    if (length == 0 || extractor.isDone()) {
      RootBytes.checkTrailing(bytes, offset, end, at);
      return;
    }
    if (!begun) {
      int first = RootBytes.skipSpace(bytes, offset, end);
      begun = first < end;
      if (begun) {
        RootBytes.checkStart(bytes[first], at + first - offset);
      }
    }
    int from = offset;
    while (from < end && !extractor.isDone()) {
      if (strings.takingOut()) {
        from = strings.takeOut(bytes, from, end);
        afterTakingOut();
      } else {
        int stop = strings.pass(bytes, from, end);
        toParser(bytes, from, stop);
        from = stop;
        if (strings.opened() && handoff != null && !extractor.parserReads()) {
          PromptText text = extractor.textFor();
          if (text != null) {
            // at most a character a byte: what is left of the body, declared or at hand
            long rest = declared >= 0 ? declared - (at + from - offset) : end - from;
            text.expect((int) Math.max(0, Math.min(Integer.MAX_VALUE, rest)));
          }
          strings.takeOut(text);
        }
      }
    }
    if (extractor.isDone()) {
      long rootEnd = extractor.bodyOffset(parser.currentLocation().getByteOffset());
      RootBytes.checkTrailing(bytes, offset + (int) (rootEnd - at), end, rootEnd);
    }
  }

  /**
   * The scan's offer of a value string's content straight from the chunk: taken out here when it is
   * being taken out and the parser has had everything before it (no separators held).
   */
  private int takeOutFromScan(byte[] bytes, int from, int limit) throws IOException {
    if (!strings.takingOut() || separators.holding() || from >= limit) {
      return from;
    }
    int stop = strings.takeOutUnchecked(bytes, from, limit);
    passed += stop - from;
    afterTakingOut();
    return stop;
  }

  /** When taking out has stopped, the rest of the string goes to the parser, held bytes first. */
  private void afterTakingOut() throws IOException {
    if (!strings.takingOut()) {
      extractor.taken(strings.takenBytes());
      toParser(strings.held(), 0, strings.release());
    }
  }

  /**
   * Gives the JSON parser {@code bytes[from, to)} and hands the extractor what it makes of them.
   */
  private void toParser(byte[] bytes, int from, int to) throws IOException {
    if (to > from) {
      feeder.feedInput(bytes, from, to);
      drain();
    }
  }

  private void drain() throws IOException {
    for (JsonToken t = parser.nextToken();
        t != null && t != JsonToken.NOT_AVAILABLE;
        t = parser.nextToken()) {
      extractor.onToken(t, parser);
      if (extractor.isDone()) {
        return;
      }
    }
  }

  private void checkNotFailed() {
    if (failure != null) {
      throw failure;
    }
  }

  private RequestRejectedException fail(RequestRejectedException e) {
    failure = e;
    close();
    return e;
  }
}
