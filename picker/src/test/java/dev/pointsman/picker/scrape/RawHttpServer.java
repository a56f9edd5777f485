package dev.pointsman.picker.scrape;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback HTTP/1.1 server on plain sockets whose framing a test chooses (Content-Length or
 * chunked, keep-alive or closing after each answer, or never answering), counting the connections
 * it accepted and the requests it read.
 */
final class RawHttpServer implements AutoCloseable {

  /** How the next answers are written. */
  enum Mode {
    CONTENT_LENGTH,
    CHUNKED,
    /** Content-Length, then the socket is closed without a {@code Connection: close} header. */
    CLOSE_AFTER_ANSWER,
    /** Reads the request and never answers. */
    SILENT
  }

  private final ServerSocket socket;
  private final List<Socket> accepted = new CopyOnWriteArrayList<>();
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger requests = new AtomicInteger();
  private final CountDownLatch closed = new CountDownLatch(1);
  private volatile Mode mode = Mode.CONTENT_LENGTH;
  private volatile int status = 200;
  private volatile byte[] body = new byte[0];

  RawHttpServer() {
    try {
      socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Thread.ofVirtual().start(this::acceptLoop);
  }

  String address() {
    return "127.0.0.1:" + socket.getLocalPort();
  }

  int port() {
    return socket.getLocalPort();
  }

  RawHttpServer answering(Mode newMode, int newStatus, String newBody) {
    mode = newMode;
    status = newStatus;
    body = newBody.getBytes(StandardCharsets.UTF_8);
    return this;
  }

  RawHttpServer answering(Mode newMode, String newBody) {
    return answering(newMode, 200, newBody);
  }

  int connections() {
    return connections.get();
  }

  int requests() {
    return requests.get();
  }

  private void acceptLoop() {
    while (!socket.isClosed()) {
      try {
        Socket s = socket.accept();
        connections.incrementAndGet();
        accepted.add(s);
        Thread.ofVirtual().start(() -> serve(s));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void serve(Socket s) {
    try (s) {
      InputStream in = new BufferedInputStream(s.getInputStream());
      OutputStream out = s.getOutputStream();
      while (readRequest(in)) {
        requests.incrementAndGet();
        Mode m = mode;
        if (m == Mode.SILENT) {
          closed.await();
          return;
        }
        out.write(answer(m));
        out.flush();
        if (m == Mode.CLOSE_AFTER_ANSWER) {
          return;
        }
      }
    } catch (IOException | InterruptedException e) {
      // the client went away, or the server closes
    }
  }

  private byte[] answer(Mode m) throws IOException {
    byte[] b = body;
    var out = new java.io.ByteArrayOutputStream();
    String head = "HTTP/1.1 " + status + " X\r\nContent-Type: text/plain; version=0.0.4\r\n";
    if (m == Mode.CHUNKED) {
      out.write((head + "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      int half = b.length / 2;
      chunk(out, b, 0, half);
      chunk(out, b, half, b.length - half);
      out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    } else {
      out.write(
          (head + "Content-Length: " + b.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(b);
    }
    return out.toByteArray();
  }

  private static void chunk(java.io.ByteArrayOutputStream out, byte[] b, int from, int length)
      throws IOException {
    if (length == 0) {
      return;
    }
    out.write((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(b, from, length);
    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
  }

  /** Reads one request head; false at the end of the stream. */
  private static boolean readRequest(InputStream in) throws IOException {
    int matched = 0;
    int read = 0;
    while (matched < 4) {
      int c = in.read();
      if (c < 0) {
        return false;
      }
      read++;
      boolean expected = (matched % 2 == 0) ? c == '\r' : c == '\n';
      matched = expected ? matched + 1 : (c == '\r' ? 1 : 0);
    }
    return read > 4;
  }

  @Override
  public void close() {
    closed.countDown();
    try {
      socket.close();
      for (Socket s : accepted) {
        s.close();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
