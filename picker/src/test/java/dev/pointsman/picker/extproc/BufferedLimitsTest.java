package dev.pointsman.picker.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.extproc.testing.Replies;
import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.config.PickerConfig;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * BUFFERED mode over a real gRPC socket: Envoy sends the whole body in one message, so the server's
 * inbound message limit must carry any body up to the body limit. A body over the gRPC default (8
 * MiB) but within the body limit is read; one over the body limit gets 413, not RESOURCE_EXHAUSTED.
 */
class BufferedLimitsTest {
  private PickerApp app;
  private ManagedChannel channel;

  private void start(long maxBodyBytes) {
    String yaml =
        """
        grpc: {port: 0, host: 127.0.0.1, tls: plaintext, drainSeconds: 0}
        admin: {port: 0, host: 127.0.0.1}
        extProc: {requestBodyMode: BUFFERED, responseBodyMode: NONE, maxBodyBytes: %d}
        pools: [{name: a, models: [m], endpoints: [{address: '127.0.0.1:9'}]}]
        """
            .formatted(maxBodyBytes);
    app = new PickerApp(PickerConfig.parse(yaml), null).start();
    channel =
        NettyChannelBuilder.forAddress("127.0.0.1", app.grpcPort())
            .usePlaintext()
            .maxInboundMessageSize(64 << 20)
            .build();
  }

  @AfterEach
  void stop() {
    if (channel != null) {
      channel.shutdownNow();
    }
    if (app != null) {
      app.close();
    }
  }

  @Test
  void aBodyOverTheBodyLimitGets413NotAGrpcError() {
    start(10L << 20);

    ProcessingResponse r = send(body((10 << 20) + 1024));

    Replies.assertError(r, 413, "body_too_large");
  }

  @Test
  void aBodyOverEightMibButWithinTheDefaultLimitIsRead() {
    start(16L << 20);

    ProcessingResponse r = send(body(12 << 20));

    // read and decided: the pool's only endpoint was never scraped, so no endpoint is ready
    Replies.assertError(r, 503, "no_ready_endpoint");
  }

  private ProcessingResponse send(byte[] body) {
    EnvoyReplay s = EnvoyReplay.open(channel).requestHeaders("POST", "/v1/completions", false);
    assertThat(s.next().hasRequestHeaders()).as("BUFFERED: headers continued at once").isTrue();
    s.requestBody(body, true);
    ProcessingResponse r = s.next();
    assertThat(s.awaitEnd()).as("completed cleanly, not %s", s.status()).isTrue();
    return r;
  }

  private static byte[] body(int size) {
    byte[] start = "{\"model\":\"m\",\"prompt\":\"".getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[size];
    Arrays.fill(out, (byte) 'a');
    System.arraycopy(start, 0, out, 0, start.length);
    out[size - 2] = '"';
    out[size - 1] = '}';
    return out;
  }
}
