package dev.pointsman.picker.recording;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes recorded rows off the request path: request threads {@link #offer} into a bounded queue (a
 * full queue drops the row and counts it), one writer thread salts the prefix blocks, formats the
 * line and appends it to a {@link RotatingFile}, flushing whenever the queue runs empty. {@link
 * #close} writes what is queued and flushes. Thread-safe.
 */
public final class TrafficRecorder implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TrafficRecorder.class);
  private static final TraceRow STOP = new TraceRow(0, 0, 0, new long[0], null, null, null);

  private final BlockingQueue<TraceRow> queue;
  private final RotatingFile file;
  private final SaltedBlocks salted;
  private final Thread writer;
  private final AtomicLong written = new AtomicLong();
  private final AtomicLong dropped = new AtomicLong();
  private volatile boolean closed;

  /**
   * Opens the file (rotating away one left by an earlier run) and starts the writer thread.
   *
   * @param salt the installation's salt ({@link Salt#load})
   * @param threads makes the writer thread
   */
  public TrafficRecorder(
      Path path, long maxBytes, int maxFiles, int queueCapacity, byte[] salt, ThreadFactory threads)
      throws IOException {
    this.queue = new ArrayBlockingQueue<>(queueCapacity);
    this.file = new RotatingFile(path, maxBytes, maxFiles);
    this.salted = new SaltedBlocks(salt);
    this.writer = threads.newThread(this::run);
    writer.start();
  }

  /** Queues a row for writing; drops it (counted) when the queue is full or the recorder closed. */
  public void offer(TraceRow row) {
    if (closed || !queue.offer(row)) {
      dropped.incrementAndGet();
    }
  }

  private void run() {
    try {
      while (true) {
        TraceRow row = queue.poll();
        if (row == null) {
          file.flush();
          row = queue.take();
        }
        if (row == STOP) {
          break;
        }
        write(row);
      }
      TraceRow rest;
      while ((rest = queue.poll()) != null) {
        if (rest != STOP) {
          write(rest);
        }
      }
      file.close();
    } catch (IOException e) {
      log.error("traffic recording stopped: {}", e.toString());
      closed = true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void write(TraceRow row) throws IOException {
    long[] ids = salted.ids(row.blocks(), TraceLine.maxIds(row.inputTokens()));
    file.write(TraceLine.format(row, ids));
    written.incrementAndGet();
  }

  /** Lines written. */
  public long written() {
    return written.get();
  }

  /** Rows dropped: the queue was full, or the recorder had stopped. */
  public long dropped() {
    return dropped.get();
  }

  /** Stops taking rows, writes those queued, flushes and closes the file (waits up to 10 s). */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (queue.offer(STOP, 10, TimeUnit.SECONDS)) {
        writer.join(TimeUnit.SECONDS.toMillis(10));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
