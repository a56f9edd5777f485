package dev.pointsman.gateway;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;

/**
 * A model server on a plain socket (HTTP/1.1, keep-alive) whose streamed completions are held open:
 * each answers its headers and a first SSE event at once, then waits for {@link #release()} before
 * it sends the last event and {@code [DONE]}. {@code /metrics} answers vLLM-named metrics so the
 * picker scrapes it as ready. Thread per connection (virtual).
 */
final class HeldPod implements AutoCloseable {
  private static final String METRICS =
      "vllm:num_requests_waiting{model_name=\"llama-8b\"} 0\n"
          + "vllm:num_requests_running{model_name=\"llama-8b\"} 0\n"
          + "vllm:kv_cache_usage_perc{model_name=\"llama-8b\"} 0.1\n";

  private final ServerSocket server;
  private final CountDownLatch release = new CountDownLatch(1);
  private final Semaphore started = new Semaphore(0);

  HeldPod() throws IOException {
    server = new ServerSocket(0, 128, InetAddress.getLoopbackAddress());
    Thread.ofVirtual()
        .start(
            () -> {
              while (!server.isClosed()) {
                try {
                  Socket s = server.accept();
                  Thread.ofVirtual().start(() -> serve(s));
                } catch (IOException e) {
                  return;
                }
              }
            });
  }

  String address() {
    return "127.0.0.1:" + server.getLocalPort();
  }

  /** Waits until {@code n} held completions have sent their first event. */
  boolean awaitStarted(int n) throws InterruptedException {
    return started.tryAcquire(n, 20, java.util.concurrent.TimeUnit.SECONDS);
  }

  /** Lets every held completion, and every later one, finish. */
  void release() {
    release.countDown();
  }

  private void serve(Socket socket) {
    try (socket) {
      InputStream in = new BufferedInputStream(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      for (String head = readHead(in); head != null; head = readHead(in)) {
        in.readNBytes(contentLength(head));
        if (head.startsWith("GET /metrics")) {
          byte[] body = METRICS.getBytes(StandardCharsets.UTF_8);
          out.write(
              ("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: "
                      + body.length
                      + "\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
          out.write(body);
          out.flush();
          continue;
        }
        out.write(
            ("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                    + "transfer-encoding: chunked\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        chunk(out, event(" first"));
        started.release();
        release.await();
        chunk(out, event(" last") + "data: [DONE]\n\n");
        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
      }
    } catch (IOException e) {
      // the client went away
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static String event(String text) {
    return "data: {\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"model\":\"llama-8b\","
        + "\"choices\":[{\"index\":0,\"text\":\""
        + text
        + "\",\"finish_reason\":null}]}\n\n";
  }

  private static void chunk(OutputStream out, String data) throws IOException {
    byte[] bytes = data.getBytes(StandardCharsets.UTF_8);
    out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(bytes);
    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  /** The request line and headers, or null at the end of the connection. */
  private static String readHead(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    int c;
    while ((c = in.read()) != -1) {
      head.append((char) c);
      if (head.length() >= 4 && head.lastIndexOf("\r\n\r\n") == head.length() - 4) {
        return head.toString();
      }
    }
    return null;
  }

  private static int contentLength(String head) {
    for (String line : head.split("\r\n")) {
      if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        return Integer.parseInt(line.substring(15).strip());
      }
    }
    return 0;
  }

  @Override
  public void close() throws IOException {
    release.countDown();
    server.close();
  }
}
