package dev.pointsman.sim.server;

import dev.pointsman.sim.engine.BlockHashes;
import dev.pointsman.sim.engine.KvEventListener;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * Publishes a simulated engine's KV-cache events as vLLM does ({@code ZmqEventPublisher} in vLLM's
 * {@code vllm/distributed/kv_events.py}): a PUB socket sending {@code [topic, seq, payload]} with
 * an 8-byte big-endian sequence number from 0, and a ROUTER socket answering a replay request
 * {@code [id, "", start-seq]} with {@code [id, "", seq, payload]} for every buffered batch from
 * {@code start-seq} on, then {@code [id, "", -1, ""]}. Payloads use vLLM's current encoding: the
 * batch a map {@code {ts, events, data_parallel_rank}}, each event a map tagged by {@code type},
 * block hashes 32-byte strings (the simulator's 64-bit content hash in the low 8 bytes).
 *
 * <p>The simulator knows token counts, not token ids: each block's token ids are derived from its
 * content hash ({@link BlockHashes#tokenIds}), so equal blocks carry equal ids. An engine that
 * offloads also publishes its CPU tier's blocks with {@code medium: "CPU"}; those stores carry no
 * token ids, as vLLM's offloading connector sends them.
 *
 * <p>Thread-safe: the engine thread queues events; one publisher thread batches, sends and serves
 * replays, and owns both sockets.
 */
final class KvEventPublisher implements KvEventListener, AutoCloseable {
  /** Batches kept for replay, vLLM's default {@code buffer_steps}. */
  static final int BUFFER_STEPS = 10_000;

  private static final int MAX_EVENTS_PER_BATCH = 256;
  private static final String GPU = "GPU";
  private static final String CPU = "CPU";
  private static final byte[] END_SEQ = ByteBuffer.allocate(8).putLong(-1).array();

  private sealed interface Ev {}

  private record Stored(long parent, long hash, int blockSize, String medium) implements Ev {}

  private record Removed(long hash, String medium) implements Ev {}

  private record Cleared() implements Ev {}

  private final ZContext context = new ZContext(1);
  private final ConcurrentLinkedQueue<Ev> queue = new ConcurrentLinkedQueue<>();
  private final ArrayDeque<byte[][]> buffer = new ArrayDeque<>();
  private final byte[] topic;
  private final int rank;
  private final ZMQ.Socket pub;
  private final ZMQ.Socket router;
  private final int pubPort;
  private final int replayPort;
  private final Thread thread;
  private volatile boolean running = true;
  private long seq;

  /** Binds {@code host:port} (PUB) and {@code host:replayPort} (ROUTER); 0 picks free ports. */
  KvEventPublisher(String host, int port, int replayPort, String topic, int rank) {
    this.topic = topic.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    this.rank = rank;
    pub = context.createSocket(SocketType.PUB);
    pub.setLinger(0);
    pub.setSndHWM(100_000);
    this.pubPort = bind(pub, host, port);
    router = context.createSocket(SocketType.ROUTER);
    router.setLinger(0);
    this.replayPort = bind(router, host, replayPort);
    thread = new Thread(this::run, "sim-kv-events-" + pubPort);
    thread.setDaemon(true);
    thread.start();
  }

  private static int bind(ZMQ.Socket s, String host, int port) {
    return port == 0 ? s.bindToRandomPort("tcp://" + host) : bindAt(s, host, port);
  }

  private static int bindAt(ZMQ.Socket s, String host, int port) {
    s.bind("tcp://" + host + ":" + port);
    return port;
  }

  int pubPort() {
    return pubPort;
  }

  int replayPort() {
    return replayPort;
  }

  @Override
  public void stored(long parent, long hash, int blockSize) {
    queue.add(new Stored(parent, hash, blockSize, GPU));
  }

  @Override
  public void removed(long hash) {
    queue.add(new Removed(hash, GPU));
  }

  /** A CPU-tier store, tokenless as vLLM's offloading connector publishes it. */
  @Override
  public void offloaded(long parent, long hash, int blockSize) {
    queue.add(new Stored(parent, hash, blockSize, CPU));
  }

  @Override
  public void offloadRemoved(long hash) {
    queue.add(new Removed(hash, CPU));
  }

  @Override
  public void cleared() {
    queue.add(new Cleared());
  }

  private void run() {
    ZMQ.Poller poller = context.createPoller(1);
    poller.register(router, ZMQ.Poller.POLLIN);
    try {
      while (running || !queue.isEmpty()) {
        if (poller.poll(5) > 0 && poller.pollin(0)) {
          serveReplay();
        }
        List<Ev> batch = new ArrayList<>();
        for (Ev e; batch.size() < MAX_EVENTS_PER_BATCH && (e = queue.poll()) != null; ) {
          batch.add(e);
        }
        if (!batch.isEmpty()) {
          publish(batch);
        }
      }
    } catch (RuntimeException e) {
      // the context was closed under us; nothing to publish to any more
    } finally {
      poller.close();
      context.destroySocket(pub);
      context.destroySocket(router);
    }
  }

  private void publish(List<Ev> events) {
    byte[] seqBytes = ByteBuffer.allocate(8).putLong(seq++).array();
    byte[] payload = encode(events, System.currentTimeMillis() / 1000.0, rank);
    pub.sendMore(topic);
    pub.sendMore(seqBytes);
    pub.send(payload);
    buffer.addLast(new byte[][] {seqBytes, payload});
    if (buffer.size() > BUFFER_STEPS) {
      buffer.removeFirst();
    }
  }

  private void serveReplay() {
    List<byte[]> frames = new ArrayList<>();
    frames.add(router.recv(0));
    while (router.hasReceiveMore()) {
      frames.add(router.recv(0));
    }
    if (frames.size() != 3 || frames.get(2).length != 8) {
      return;
    }
    byte[] client = frames.get(0);
    long start = ByteBuffer.wrap(frames.get(2)).getLong();
    for (byte[][] b : buffer) {
      if (ByteBuffer.wrap(b[0]).getLong() >= start) {
        router.sendMore(client);
        router.sendMore(new byte[0]);
        router.sendMore(b[0]);
        router.send(b[1]);
      }
    }
    router.sendMore(client);
    router.sendMore(new byte[0]);
    router.sendMore(END_SEQ);
    router.send(new byte[0]);
  }

  /** vLLM's map encoding of an {@code EventBatch} (msgspec, struct fields in declaration order). */
  static byte[] encode(List<?> events, double ts, int rank) {
    try (MessageBufferPacker p = MessagePack.newDefaultBufferPacker()) {
      p.packMapHeader(3);
      p.packString("ts").packDouble(ts);
      p.packString("events").packArrayHeader(events.size());
      for (Object o : events) {
        switch ((Ev) o) {
          case Stored s -> {
            p.packMapHeader(8);
            p.packString("type").packString("BlockStored");
            p.packString("block_hashes").packArrayHeader(1);
            hash(p, s.hash());
            p.packString("parent_block_hash");
            if (s.parent() == 0) {
              p.packNil();
            } else {
              hash(p, s.parent());
            }
            if (s.medium().equals(GPU)) {
              p.packString("token_ids").packArrayHeader(s.blockSize());
              for (int id : BlockHashes.tokenIds(s.hash(), s.blockSize())) {
                p.packInt(id);
              }
            } else {
              p.packString("token_ids").packArrayHeader(0);
            }
            p.packString("block_size").packInt(s.blockSize());
            p.packString("lora_id").packNil();
            p.packString("medium").packString(s.medium());
            p.packString("lora_name").packNil();
          }
          case Removed r -> {
            p.packMapHeader(3);
            p.packString("type").packString("BlockRemoved");
            p.packString("block_hashes").packArrayHeader(1);
            hash(p, r.hash());
            p.packString("medium").packString(r.medium());
          }
          case Cleared c -> {
            p.packMapHeader(1);
            p.packString("type").packString("AllBlocksCleared");
          }
        }
      }
      p.packString("data_parallel_rank").packInt(rank);
      return p.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void hash(MessageBufferPacker p, long h) throws IOException {
    p.packBinaryHeader(32);
    p.writePayload(ByteBuffer.allocate(32).putLong(24, h).array());
  }

  /** Stops publishing (after sending what is queued) and closes both sockets. */
  @Override
  public void close() {
    running = false;
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    context.close();
  }
}
