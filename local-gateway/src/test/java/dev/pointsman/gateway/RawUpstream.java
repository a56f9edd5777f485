package dev.pointsman.gateway;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A model server on a raw socket that answers each request head with scripted bytes, to play
 * servers that break HTTP/1.1 in ways a real stack would not. It counts the connections it accepts.
 */
final class RawUpstream implements AutoCloseable {

  /**
   * What to do with one request: whether to read its body first ({@code content-length} only), what
   * to write, and whether to close afterwards.
   */
  record Answer(boolean readBody, String bytes, boolean close) {}

  /** Instead of answering, waits for {@code until} and then resets the connection. */
  private final java.util.function.BooleanSupplier resetWhen;

  private final ServerSocket server;
  private final AtomicInteger connections = new AtomicInteger();
  private final List<Socket> open = new CopyOnWriteArrayList<>();
  private final Answer answer;

  RawUpstream(Answer answer) throws IOException {
    this(answer, null);
  }

  /**
   * A server that reads a request head, then nothing, and resets the connection (TCP RST) once
   * {@code resetWhen} holds.
   */
  static RawUpstream resetting(java.util.function.BooleanSupplier resetWhen) throws IOException {
    return new RawUpstream(new Answer(false, "", true), resetWhen);
  }

  private RawUpstream(Answer answer, java.util.function.BooleanSupplier resetWhen)
      throws IOException {
    this.answer = answer;
    this.resetWhen = resetWhen;
    this.server = new ServerSocket();
    this.server.setReceiveBufferSize(4096); // accepted sockets fill up fast when not read
    this.server.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    Thread.ofVirtual().start(this::accept);
  }

  String address() {
    return "127.0.0.1:" + server.getLocalPort();
  }

  int connections() {
    return connections.get();
  }

  private void accept() {
    try {
      while (true) {
        Socket s = server.accept();
        connections.incrementAndGet();
        open.add(s);
        Thread.ofVirtual().start(() -> serve(s));
      }
    } catch (IOException closed) {
      // the server socket was closed
    }
  }

  private void serve(Socket s) {
    try (s) {
      InputStream in = s.getInputStream();
      OutputStream out = s.getOutputStream();
      if (resetWhen != null) {
        readHead(in);
        dev.pointsman.testing.Await.until("the reset condition", resetWhen);
        s.setSoLinger(true, 0);
        return;
      }
      for (String head = readHead(in); head != null; head = readHead(in)) {
        if (answer.readBody()) {
          readBody(in, head);
        }
        out.write(answer.bytes().getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        if (answer.close()) {
          return;
        }
      }
    } catch (IOException gone) {
      // the gateway closed the connection
    }
  }

  /** Reads a {@code content-length} or chunked body. */
  private static void readBody(InputStream in, String head) throws IOException {
    String lower = head.toLowerCase(java.util.Locale.ROOT);
    if (lower.contains("transfer-encoding: chunked")) {
      for (int size = chunkSize(in); size > 0; size = chunkSize(in)) {
        in.readNBytes(size + 2);
      }
      in.readNBytes(2); // the empty trailer section
      return;
    }
    for (String line : lower.split("\r\n")) {
      if (line.startsWith("content-length:")) {
        in.readNBytes(Integer.parseInt(line.substring(15).trim()));
      }
    }
  }

  private static int chunkSize(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
      if (b != '\r') {
        line.append((char) b);
      }
    }
    return line.isEmpty() ? 0 : Integer.parseInt(line.toString().split(";")[0].trim(), 16);
  }

  /** The request head, or null at the end of the stream. */
  private static String readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    for (int b = in.read(); b >= 0; b = in.read()) {
      head.write(b);
      matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
      if (matched == 4) {
        return head.toString(StandardCharsets.ISO_8859_1);
      }
    }
    return null;
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket s : open) {
      s.close();
    }
  }
}
