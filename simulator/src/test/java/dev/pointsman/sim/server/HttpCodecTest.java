package dev.pointsman.sim.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.sim.engine.GpuProfiles;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Requests a pod cannot parse, over a raw socket: an answer that says what was wrong, then the
 * connection closes, so that nothing sent after them is silently swallowed.
 */
class HttpCodecTest {
  Fleet fleet;
  URI base;

  @BeforeEach
  void start() {
    fleet =
        Fleet.start(
            new FleetConfig(List.of(PodConfig.of("pod", "H100-80")), 1L, null),
            GpuProfiles.builtIn());
    base = URI.create(fleet.urls().getFirst());
  }

  @AfterEach
  void stop() {
    fleet.close();
  }

  @Test
  void aHeaderOverTheLimitIs431AndTheConnectionCloses() throws Exception {
    String request =
        "GET /v1/models HTTP/1.1\r\nhost: pod\r\nx-big: "
            + "a".repeat(9 * 1024)
            + "\r\n\r\n"
            + "GET /v1/models HTTP/1.1\r\nhost: pod\r\n\r\n";

    String answer = exchange(request);

    assertThat(answer).startsWith("HTTP/1.1 431 ");
    assertThat(answer.toLowerCase()).contains("connection: close");
    assertThat(answer).contains("\"error\"").contains("header");
    assertThat(answer.split("HTTP/1.1 ", -1)).hasSize(2); // one answer; the rest was not served
  }

  @Test
  void aMalformedRequestIs400AndTheConnectionCloses() throws Exception {
    String answer = exchange("POST /v1/models HTTP/1.1\r\nhost: pod\r\ncontent-length: x\r\n\r\n");

    assertThat(answer).startsWith("HTTP/1.1 400 ");
    assertThat(answer.toLowerCase()).contains("connection: close");
    assertThat(answer).contains("\"error\"");
  }

  @Test
  void aBodyOverTheLimitIs413ThatTheClientCanReadAfterSendingItAll() throws Exception {
    // the pod answers at the headers (content-length over its 8 MiB) while the client still sends:
    // a plain close would reset the connection and the client would never read the 413
    byte[] body = new byte[9 << 20];
    java.util.Arrays.fill(body, (byte) 'a');
    String head =
        "POST /v1/chat/completions HTTP/1.1\r\nhost: pod\r\ncontent-type: application/json\r\n"
            + "content-length: "
            + body.length
            + "\r\n\r\n";

    String answer;
    try (Socket s = new Socket(base.getHost(), base.getPort())) {
      s.setSoTimeout(10_000);
      var out = s.getOutputStream();
      out.write(head.getBytes(StandardCharsets.US_ASCII));
      for (int at = 0; at < body.length; at += 64 << 10) {
        out.write(body, at, Math.min(64 << 10, body.length - at));
      }
      out.flush();
      answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
    }

    assertThat(answer).startsWith("HTTP/1.1 413 ");
    assertThat(answer.toLowerCase()).contains("connection: close");
    assertThat(answer).contains("\"error\"").contains("exceeds");
  }

  /** Writes {@code request} and reads until the pod closes (the socket's read timeout fails). */
  private String exchange(String request) throws Exception {
    try (Socket s = new Socket(base.getHost(), base.getPort())) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      InputStream in = s.getInputStream();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buf = new byte[4096];
      for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
        out.write(buf, 0, n);
      }
      return out.toString(StandardCharsets.US_ASCII);
    }
  }
}
