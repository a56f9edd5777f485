package dev.pointsman.extproc.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.envoyproxy.envoy.config.core.v3.HeaderMap;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpBody;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpHeaders;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpTrailers;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.Channel;
import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Plays Envoy's side of one ext_proc stream: sends the exact messages Envoy sends, in order, and
 * collects the processor's replies.
 */
public final class EnvoyReplay
    implements ClientResponseObserver<ProcessingRequest, ProcessingResponse> {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final LinkedBlockingQueue<ProcessingResponse> replies = new LinkedBlockingQueue<>();
  private final CountDownLatch done = new CountDownLatch(1);
  private volatile ClientCallStreamObserver<ProcessingRequest> call;
  private volatile Status status;
  private volatile boolean completed;

  public static EnvoyReplay open(Channel channel) {
    EnvoyReplay replay = new EnvoyReplay();
    ExternalProcessorGrpc.newStub(channel).process(replay);
    return replay;
  }

  @Override
  public void beforeStart(ClientCallStreamObserver<ProcessingRequest> requestStream) {
    this.call = requestStream;
  }

  @Override
  public void onNext(ProcessingResponse value) {
    replies.add(value);
  }

  @Override
  public void onError(Throwable t) {
    status = Status.fromThrowable(t);
    done.countDown();
  }

  @Override
  public void onCompleted() {
    completed = true;
    done.countDown();
  }

  public EnvoyReplay requestHeaders(
      String method, String path, boolean endOfStream, String... extra) {
    return requestHeaders(method, path, endOfStream, null, extra);
  }

  public EnvoyReplay requestHeaders(
      String method, String path, boolean endOfStream, Metadata metadata, String... extra) {
    HeaderMap.Builder map =
        HeaderMap.newBuilder()
            .addHeaders(raw(":method", method))
            .addHeaders(raw(":path", path))
            .addHeaders(raw(":authority", "gateway.example"))
            .addHeaders(raw(":scheme", "https"));
    for (int i = 0; i + 1 < extra.length; i += 2) {
      map.addHeaders(raw(extra[i], extra[i + 1]));
    }
    ProcessingRequest.Builder req =
        ProcessingRequest.newBuilder()
            .setRequestHeaders(
                HttpHeaders.newBuilder().setHeaders(map).setEndOfStream(endOfStream));
    if (metadata != null) {
      req.setMetadataContext(metadata);
    }
    call.onNext(req.build());
    return this;
  }

  public EnvoyReplay requestBody(byte[] chunk, boolean endOfStream) {
    call.onNext(
        ProcessingRequest.newBuilder()
            .setRequestBody(
                HttpBody.newBuilder()
                    .setBody(ByteString.copyFrom(chunk))
                    .setEndOfStream(endOfStream))
            .build());
    return this;
  }

  /** Sends {@code body} in chunks of {@code chunkSize}, the last one with end of stream. */
  public EnvoyReplay requestBodyChunked(byte[] body, int chunkSize) {
    for (int at = 0; at < body.length; at += chunkSize) {
      int end = Math.min(body.length, at + chunkSize);
      byte[] chunk = java.util.Arrays.copyOfRange(body, at, end);
      requestBody(chunk, end == body.length);
    }
    return this;
  }

  public EnvoyReplay requestTrailers() {
    call.onNext(
        ProcessingRequest.newBuilder()
            .setRequestTrailers(HttpTrailers.getDefaultInstance())
            .build());
    return this;
  }

  /**
   * Response headers as a stock Envoy sends them when a route adds {@code
   * x-gateway-destination-endpoint-served: %UPSTREAM_HOST%}: the served endpoint in a header, no
   * {@code envoy.lb} metadata.
   */
  public EnvoyReplay responseHeadersServedInHeader(
      int status, boolean endOfStream, String servedHeader) {
    return responseHeaders(
        status, endOfStream, null, dev.pointsman.extproc.Responses.SERVED_KEY, servedHeader);
  }

  public EnvoyReplay responseHeaders(int status, boolean endOfStream, String served) {
    return responseHeaders(status, endOfStream, served, new String[0]);
  }

  /**
   * Response headers with {@code served} in {@code envoy.lb} metadata (null: none) and {@code
   * extra} headers as name, value pairs.
   */
  public EnvoyReplay responseHeaders(
      int status, boolean endOfStream, String served, String... extra) {
    HeaderMap.Builder map =
        HeaderMap.newBuilder()
            .addHeaders(raw(":status", Integer.toString(status)))
            .addHeaders(raw("content-type", "text/event-stream"));
    for (int i = 0; i + 1 < extra.length; i += 2) {
      map.addHeaders(raw(extra[i], extra[i + 1]));
    }
    ProcessingRequest.Builder req =
        ProcessingRequest.newBuilder()
            .setResponseHeaders(
                HttpHeaders.newBuilder().setHeaders(map).setEndOfStream(endOfStream));
    if (served != null) {
      req.setMetadataContext(
          Metadata.newBuilder()
              .putFilterMetadata(
                  "envoy.lb",
                  Struct.newBuilder()
                      .putFields(
                          dev.pointsman.extproc.Responses.SERVED_KEY,
                          Value.newBuilder().setStringValue(served).build())
                      .build()));
    }
    call.onNext(req.build());
    return this;
  }

  public EnvoyReplay responseBody(String chunk, boolean endOfStream) {
    call.onNext(
        ProcessingRequest.newBuilder()
            .setResponseBody(
                HttpBody.newBuilder()
                    .setBody(ByteString.copyFromUtf8(chunk))
                    .setEndOfStream(endOfStream))
            .build());
    return this;
  }

  /** Envoy resets the side stream when the HTTP stream ends. */
  public void cancel() {
    call.cancel("http stream reset", null);
  }

  public void halfClose() {
    call.onCompleted();
  }

  public ProcessingResponse next() {
    try {
      ProcessingResponse r = replies.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(r).as("a reply from the processor within %s", WAIT).isNotNull();
      return r;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Takes {@code n} replies. */
  public List<ProcessingResponse> next(int n) {
    List<ProcessingResponse> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(next());
    }
    return out;
  }

  /** The replies that have arrived so far, without waiting. */
  public List<ProcessingResponse> drainNow() {
    List<ProcessingResponse> out = new ArrayList<>();
    replies.drainTo(out);
    return out;
  }

  /** Waits for the server to end the stream; returns true if it completed cleanly. */
  public boolean awaitEnd() {
    try {
      assertThat(done.await(WAIT.toMillis(), TimeUnit.MILLISECONDS))
          .as("stream ended within %s", WAIT)
          .isTrue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
    return completed;
  }

  public Status status() {
    return status;
  }

  public static HeaderValue raw(String key, String value) {
    return HeaderValue.newBuilder()
        .setKey(key)
        .setRawValue(ByteString.copyFrom(value, StandardCharsets.UTF_8))
        .build();
  }
}
