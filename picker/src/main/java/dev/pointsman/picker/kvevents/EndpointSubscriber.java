package dev.pointsman.picker.kvevents;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * Follows one engine's KV-event stream: a SUB socket on its PUB port and, when a sequence number is
 * skipped, a replay request on its ROUTER port. vLLM's framing ({@code ZmqEventPublisher} in {@code
 * vllm/distributed/kv_events.py}): published messages are {@code [topic, seq, payload]}, {@code
 * seq} an 8-byte big-endian integer counting from 0 per process; a replay request is {@code ["",
 * start-seq]} as a REQ socket would frame it, answered by one {@code ["", seq, payload]} per
 * buffered batch from {@code start-seq} on, then {@code ["", -1, ""]}. This class speaks DEALER so
 * that it can read the many answers to one request.
 *
 * <p>Rules: on connecting, every batch the engine still buffers is replayed (and skipped when it
 * arrives on the SUB socket too); a gap is replayed; a replay that does not reach the live message
 * (timed out, or the engine's buffer no longer holds the start) drops the endpoint's entries, since
 * evictions may have been missed, and keeps what followed; a sequence going backwards is an engine
 * restart and drops the entries; {@code AllBlocksCleared} drops them too. A bad message is counted
 * once and skipped.
 *
 * <p>One thread owns both sockets; {@link #close()} stops it and waits for it to close them.
 */
final class EndpointSubscriber implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EndpointSubscriber.class);
  private static final int POLL_MILLIS = 100;
  private static final long END_SEQ = -1;
  private static final int SYNC_MEMORY = 4096;

  private final String pool;
  private final String address;
  private final String pubUrl;
  private final String replayUrl;
  private final String topic;
  private final long replayTimeoutNanos;
  private final ZContext context;
  private final KvBlockIndex index;
  private final KvEventsObserver observer;
  private final LongSupplier nanoTime;
  private final KvEventDecoder decoder = new KvEventDecoder();
  private final Thread thread;
  private volatile boolean running = true;
  private ZMQ.Socket replay;
  private long last = -1;

  /**
   * Payload hashes of the batches the initial sync replayed, by sequence number, until the live
   * stream passes them: the same batches may be waiting on the SUB socket, and are skipped.
   */
  private final LinkedHashMap<Long, Integer> synced =
      new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Integer> eldest) {
          return size() > SYNC_MEMORY;
        }
      };

  EndpointSubscriber(
      String pool,
      String address,
      String pubUrl,
      String replayUrl,
      KvEventsSettings settings,
      ZContext context,
      KvBlockIndex index,
      KvEventsObserver observer,
      LongSupplier nanoTime) {
    this.pool = pool;
    this.address = address;
    this.pubUrl = pubUrl;
    this.replayUrl = replayUrl;
    this.topic = settings.topic();
    this.replayTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(settings.replayTimeoutMillis());
    this.context = context;
    this.index = index;
    this.observer = observer;
    this.nanoTime = nanoTime;
    this.thread = new Thread(this::run, "pointsman-kv-events-" + address);
    thread.setDaemon(true);
  }

  EndpointSubscriber start() {
    thread.start();
    return this;
  }

  String address() {
    return address;
  }

  boolean alive() {
    return thread.isAlive();
  }

  private void run() {
    ZMQ.Socket sub = context.createSocket(SocketType.SUB);
    ZMQ.Poller poller = context.createPoller(1);
    try {
      sub.setLinger(0);
      sub.subscribe(topic.getBytes(java.nio.charset.StandardCharsets.UTF_8));
      sub.connect(pubUrl);
      poller.register(sub, ZMQ.Poller.POLLIN);
      if (replayUrl != null) {
        initialSync();
      }
      while (running) {
        if (poller.poll(POLL_MILLIS) > 0 && poller.pollin(0)) {
          List<byte[]> frames = receive(sub);
          if (frames != null) {
            onMessage(frames);
          }
        }
      }
    } catch (RuntimeException e) {
      if (running) {
        log.warn("kv events of {} ({}): subscriber stopped: {}", address, pubUrl, e.toString());
      }
    } finally {
      poller.close();
      closeReplay();
      context.destroySocket(sub);
    }
  }

  private void onMessage(List<byte[]> frames) {
    if (frames.size() != 3 || frames.get(1).length != 8) {
      observer.decodeError(pool, "frames");
      return;
    }
    long seq = ByteBuffer.wrap(frames.get(1)).getLong();
    if (!synced.isEmpty()) {
      Integer replayed = synced.get(seq);
      if (replayed != null && replayed == Arrays.hashCode(frames.get(2))) {
        return; // the initial sync applied this batch already
      }
      synced.clear();
    }
    if (last >= 0 && seq <= last) {
      observer.restart(pool);
      index.clear(address);
      last = -1;
    }
    if (seq != last + 1) {
      if (last >= 0) {
        observer.gap(pool, seq - last - 1);
      }
      catchUp(seq);
    }
    apply(frames.get(2));
    last = seq;
  }

  /**
   * On connecting, asks for every batch the engine still buffers, so that a picker that starts
   * after its engines knows their caches without waiting for their next event.
   */
  private void initialSync() {
    boolean ended =
        replay(
            0,
            (seq, payload) -> {
              if (seq > last) {
                apply(payload);
                last = seq;
                synced.put(seq, Arrays.hashCode(payload));
              }
            });
    observer.replay(pool, ended ? "initial" : "incomplete");
  }

  /** Replays from {@code last + 1} up to {@code live - 1}, as far as the engine can. */
  private void catchUp(long live) {
    if (replayUrl == null) {
      observer.replay(pool, "unavailable");
      index.clear(address);
      return;
    }
    boolean[] holes = {false};
    boolean ended =
        replay(
            last + 1,
            (seq, payload) -> {
              if (seq > last && seq < live) {
                if (seq != last + 1) {
                  holes[0] = true;
                  index.clear(address);
                }
                apply(payload);
                last = seq;
              }
            });
    boolean reached = ended && last == live - 1;
    observer.replay(pool, reached && !holes[0] ? "complete" : "incomplete");
    if (!reached) {
      index.clear(address);
    }
  }

  /**
   * Asks the engine's replay socket for its buffered batches from sequence {@code from} and hands
   * each to {@code batch}; true if the engine's end marker arrived before the replay timeout.
   */
  private boolean replay(long from, BiConsumer<Long, byte[]> batch) {
    ZMQ.Socket r = replaySocket();
    r.sendMore(new byte[0]);
    r.send(ByteBuffer.allocate(8).putLong(from).array());
    long deadline = nanoTime.getAsLong() + replayTimeoutNanos;
    while (true) {
      if (!readable(r, deadline)) {
        closeReplay();
        return false;
      }
      List<byte[]> frames = receive(r);
      if (frames == null || frames.size() != 3 || frames.get(1).length != 8) {
        observer.decodeError(pool, "frames");
        continue;
      }
      long seq = ByteBuffer.wrap(frames.get(1)).getLong();
      if (seq == END_SEQ) {
        return true;
      }
      batch.accept(seq, frames.get(2));
    }
  }

  /** Waits until {@code socket} has a message, false at {@code deadline} or when closing. */
  private boolean readable(ZMQ.Socket socket, long deadline) {
    ZMQ.Poller p = context.createPoller(1);
    try {
      p.register(socket, ZMQ.Poller.POLLIN);
      while (running) {
        long leftMillis = TimeUnit.NANOSECONDS.toMillis(deadline - nanoTime.getAsLong());
        if (leftMillis <= 0) {
          return false;
        }
        if (p.poll(Math.min(leftMillis, POLL_MILLIS)) > 0 && p.pollin(0)) {
          return true;
        }
      }
      return false;
    } finally {
      p.close();
    }
  }

  private void apply(byte[] payload) {
    EventBatch batch;
    try {
      batch = decoder.decode(payload);
    } catch (KvEventFormatException e) {
      observer.decodeError(pool, e.reason());
      log.debug("kv events of {}: {}", address, e.getMessage());
      return;
    }
    if (batch.unknownEvents() > 0) {
      observer.unknownEvents(pool, batch.unknownEvents());
    }
    observer.batch(pool, batch.events().size(), index.apply(address, batch.events()));
  }

  private ZMQ.Socket replaySocket() {
    if (replay == null) {
      replay = context.createSocket(SocketType.DEALER);
      replay.setLinger(0);
      replay.connect(replayUrl);
    }
    return replay;
  }

  private void closeReplay() {
    if (replay != null) {
      context.destroySocket(replay);
      replay = null;
    }
  }

  /** All frames of one message, or null if none was waiting; at most 8 kept. */
  private static List<byte[]> receive(ZMQ.Socket socket) {
    byte[] first = socket.recv(ZMQ.DONTWAIT);
    if (first == null) {
      return null;
    }
    List<byte[]> frames = new ArrayList<>(3);
    frames.add(first);
    while (socket.hasReceiveMore()) {
      byte[] more = socket.recv(0);
      if (frames.size() < 8) {
        frames.add(more);
      }
    }
    return frames;
  }

  /** Stops the thread and waits until it has closed its sockets. */
  @Override
  public void close() {
    running = false;
    try {
      thread.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
