package dev.pointsman.picker.kvevents;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * A stand-in for vLLM's {@code ZmqEventPublisher} on loopback: PUB frames {@code [topic, seq,
 * payload]}, a ROUTER replaying {@code [id, "", seq, payload]}... then {@code [id, "", -1, ""]};
 * payloads in the positional encoding of the v0.9 line. The test thread publishes; a thread of its
 * own serves replays.
 */
final class FakeVllm implements AutoCloseable {
  private final ZContext context = new ZContext(1);
  private final ZMQ.Socket pub = context.createSocket(SocketType.PUB);
  private final ZMQ.Socket router = context.createSocket(SocketType.ROUTER);
  private final ArrayDeque<byte[][]> buffer = new ArrayDeque<>();
  private final int pubPort;
  private final int replayPort;
  private final Thread replays;
  private volatile boolean running = true;
  private long seq;

  FakeVllm() {
    pub.setLinger(0);
    router.setLinger(0);
    pubPort = pub.bindToRandomPort("tcp://127.0.0.1");
    replayPort = router.bindToRandomPort("tcp://127.0.0.1");
    replays = new Thread(this::serve, "fake-vllm-replay");
    replays.start();
  }

  int pubPort() {
    return pubPort;
  }

  int replayPort() {
    return replayPort;
  }

  /** Publishes {@code payload} under the next sequence number. */
  void publish(byte[] payload) {
    byte[][] m = next(payload);
    pub.sendMore("".getBytes());
    pub.sendMore(m[0]);
    pub.send(m[1]);
  }

  /**
   * Takes the next sequence number for {@code payload} and keeps it for replay, sending nothing.
   */
  void drop(byte[] payload) {
    next(payload);
  }

  /** Forgets the replay buffer (as a small {@code buffer_steps} would). */
  synchronized void forget() {
    buffer.clear();
  }

  /** A new engine process: sequence numbers from 0 again, an empty buffer. */
  synchronized void restart() {
    buffer.clear();
    seq = 0;
  }

  /** Sends raw frames on the PUB socket. */
  void raw(byte[]... frames) {
    for (int i = 0; i < frames.length - 1; i++) {
      pub.sendMore(frames[i]);
    }
    pub.send(frames[frames.length - 1]);
  }

  private synchronized byte[][] next(byte[] payload) {
    byte[][] m = {ByteBuffer.allocate(8).putLong(seq++).array(), payload};
    buffer.addLast(m);
    return m;
  }

  private void serve() {
    ZMQ.Poller poller = context.createPoller(1);
    poller.register(router, ZMQ.Poller.POLLIN);
    while (running) {
      if (poller.poll(20) <= 0) {
        continue;
      }
      List<byte[]> f = new ArrayList<>();
      f.add(router.recv(0));
      while (router.hasReceiveMore()) {
        f.add(router.recv(0));
      }
      long start = ByteBuffer.wrap(f.get(2)).getLong();
      List<byte[][]> copy;
      synchronized (this) {
        copy = new ArrayList<>(buffer);
      }
      for (byte[][] m : copy) {
        if (ByteBuffer.wrap(m[0]).getLong() >= start) {
          router.sendMore(f.get(0));
          router.sendMore(new byte[0]);
          router.sendMore(m[0]);
          router.send(m[1]);
        }
      }
      router.sendMore(f.get(0));
      router.sendMore(new byte[0]);
      router.sendMore(ByteBuffer.allocate(8).putLong(-1).array());
      router.send(new byte[0]);
    }
    poller.close();
  }

  /** {@code [ts, [["BlockStored", [hash], parent, tokens, 4, None]]]}, vLLM v0.9's encoding. */
  static byte[] stored(long hash, Long parent, int... tokens) {
    try (MessageBufferPacker p = MessagePack.newDefaultBufferPacker()) {
      p.packArrayHeader(2).packDouble(1.0).packArrayHeader(1);
      p.packArrayHeader(6).packString("BlockStored");
      p.packArrayHeader(1).packLong(hash);
      if (parent == null) {
        p.packNil();
      } else {
        p.packLong(parent);
      }
      p.packArrayHeader(tokens.length);
      for (int t : tokens) {
        p.packInt(t);
      }
      p.packInt(tokens.length).packNil();
      return p.toByteArray();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** {@code [ts, []]}. */
  static byte[] empty() {
    return new byte[] {(byte) 0x92, (byte) 0xcb, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0x90};
  }

  /** {@code [ts, [["AllBlocksCleared"]]]}. */
  static byte[] cleared() {
    try (MessageBufferPacker p = MessagePack.newDefaultBufferPacker()) {
      p.packArrayHeader(2).packDouble(1.0).packArrayHeader(1);
      p.packArrayHeader(1).packString("AllBlocksCleared");
      return p.toByteArray();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    replays.join();
    context.close();
  }
}
