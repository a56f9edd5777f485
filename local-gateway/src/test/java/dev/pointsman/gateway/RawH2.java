package dev.pointsman.gateway;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * A hand-driven HTTP/2 client over TLS (ALPN h2), frame by frame, to do what a well-behaved client
 * library will not: stall, or open more streams than the server allows. Headers are HPACK literals
 * without indexing or Huffman coding.
 */
final class RawH2 implements AutoCloseable {
  static final int HEADERS = 0x1;
  static final int RST_STREAM = 0x3;
  static final int SETTINGS = 0x4;
  static final int GOAWAY = 0x7;

  /** One frame read from the server. */
  record Frame(int type, int flags, int stream, byte[] payload) {
    int errorCode() {
      int at = type == GOAWAY ? 4 : 0;
      return ((payload[at] & 0xff) << 24)
          | ((payload[at + 1] & 0xff) << 16)
          | ((payload[at + 2] & 0xff) << 8)
          | (payload[at + 3] & 0xff);
    }
  }

  private final Socket tcp;
  private final SSLSocket socket;
  private final DataInputStream in;
  private final java.util.Map<Integer, Long> serverSettings = new java.util.HashMap<>();
  private final OutputStream out;

  RawH2(SSLContext tls, int port) throws IOException {
    tcp = new Socket("127.0.0.1", port);
    socket = (SSLSocket) tls.getSocketFactory().createSocket(tcp, "127.0.0.1", port, true);
    socket.setSoTimeout(20_000);
    SSLParameters p = socket.getSSLParameters();
    p.setApplicationProtocols(new String[] {"h2"});
    socket.setSSLParameters(p);
    socket.startHandshake();
    if (!"h2".equals(socket.getApplicationProtocol())) {
      throw new IOException("ALPN chose " + socket.getApplicationProtocol());
    }
    in = new DataInputStream(socket.getInputStream());
    out = socket.getOutputStream();
  }

  /** The connection preface with empty SETTINGS; then ACKs the server's SETTINGS. */
  RawH2 preface() throws IOException {
    out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    frame(SETTINGS, 0, 0, new byte[0]);
    for (Frame f = read(); ; f = read()) {
      if (f.type() == SETTINGS && (f.flags() & 1) == 0) {
        byte[] p = f.payload();
        for (int i = 0; i + 6 <= p.length; i += 6) {
          int id = (p[i] & 0xff) << 8 | (p[i + 1] & 0xff);
          long v =
              (p[i + 2] & 0xffL) << 24
                  | (p[i + 3] & 0xff) << 16
                  | (p[i + 4] & 0xff) << 8
                  | (p[i + 5] & 0xff);
          serverSettings.put(id, v);
        }
        frame(SETTINGS, 1, 0, new byte[0]);
        return this;
      }
    }
  }

  /** A setting the server sent in its preface, or -1. */
  long serverSetting(int id) {
    return serverSettings.getOrDefault(id, -1L);
  }

  /** A request's HEADERS frame, without END_STREAM (the body would follow). */
  void openStream(int stream) throws IOException {
    ByteArrayOutputStream block = new ByteArrayOutputStream();
    literal(block, ":method", "POST");
    literal(block, ":scheme", "https");
    literal(block, ":path", "/v1/chat/completions");
    literal(block, ":authority", "127.0.0.1");
    literal(block, "content-type", "application/json");
    frame(HEADERS, 0x4, stream, block.toByteArray()); // END_HEADERS
  }

  private static void literal(ByteArrayOutputStream b, String name, String value) {
    b.write(0x00); // literal header field without indexing, new name
    b.write(name.length());
    b.writeBytes(name.getBytes(StandardCharsets.US_ASCII));
    b.write(value.length());
    b.writeBytes(value.getBytes(StandardCharsets.US_ASCII));
  }

  private void frame(int type, int flags, int stream, byte[] payload) throws IOException {
    byte[] h = {
      (byte) (payload.length >> 16),
      (byte) (payload.length >> 8),
      (byte) payload.length,
      (byte) type,
      (byte) flags,
      (byte) (stream >> 24),
      (byte) (stream >> 16),
      (byte) (stream >> 8),
      (byte) stream
    };
    out.write(h);
    out.write(payload);
    out.flush();
  }

  /** The next frame; EOFException when the server closed the connection. */
  Frame read() throws IOException {
    int len = in.readUnsignedByte() << 16 | in.readUnsignedByte() << 8 | in.readUnsignedByte();
    int type = in.readUnsignedByte();
    int flags = in.readUnsignedByte();
    int stream = in.readInt() & 0x7fff_ffff;
    byte[] payload = new byte[len];
    in.readFully(payload);
    return new Frame(type, flags, stream, payload);
  }

  /** Reads frames until one of {@code type} (null if the connection closes first). */
  Frame await(int type) throws IOException {
    try {
      for (Frame f = read(); ; f = read()) {
        if (f.type() == type) {
          return f;
        }
      }
    } catch (EOFException closed) {
      return null;
    }
  }

  /** Whether the server closes the connection (reads and drops frames until it does). */
  boolean closedByServer() throws IOException {
    try {
      while (true) {
        read();
      }
    } catch (EOFException closed) {
      return true;
    }
  }

  /** Drops the connection with a TCP reset, as a client that crashed or was killed. */
  void reset() throws IOException {
    tcp.setSoLinger(true, 0);
    tcp.close(); // under TLS: no close_notify
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
