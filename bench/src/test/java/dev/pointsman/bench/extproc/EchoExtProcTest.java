package dev.pointsman.bench.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.pointsman.extproc.Responses;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpBody;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpTrailers;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.StreamedBodyResponse;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The echo baseline plays the picker's part of a FULL_DUPLEX_STREAMED exchange in the same shape:
 * both servers, each on its real TLS socket, get Envoy's message sequence and their replies are
 * compared.
 */
class EchoExtProcTest {
  private static final int ENVOY_CHUNK = 16 * 1024;

  @Test
  void echoAnswersInThePickersShape() throws Exception {
    byte[] body = ExtProcLoad.body(150_000); // three echoed chunks of at most 62,000 bytes

    List<ProcessingResponse> echo;
    try (ExtProcLoad.Target target = ExtProcLoad.echo()) {
      echo = exchange(target, body);
    }
    List<ProcessingResponse> picker;
    try (ExtProcLoad.Target target = ExtProcLoad.picker(2)) {
      picker = exchange(target, body);
    }

    assertFullDuplexShape(echo, body);
    assertFullDuplexShape(picker, body);
    assertThat(echo.stream().map(ProcessingResponse::getResponseCase).toList())
        .isEqualTo(picker.stream().map(ProcessingResponse::getResponseCase).toList());
    assertThat(bodyChunks(echo).stream().map(c -> c.getBody().size()).toList())
        .isEqualTo(bodyChunks(picker).stream().map(c -> c.getBody().size()).toList());
    assertThat(echo.getFirst().getDynamicMetadata().getFieldsMap().keySet())
        .isEqualTo(picker.getFirst().getDynamicMetadata().getFieldsMap().keySet());
  }

  /** Headers reply first, routing; then the body byte for byte; end of stream on the last only. */
  private static void assertFullDuplexShape(List<ProcessingResponse> replies, byte[] body) {
    ProcessingResponse first = replies.getFirst();
    assertThat(first.hasRequestHeaders()).isTrue();
    var common = first.getRequestHeaders().getResponse();
    assertThat(common.getClearRouteCache()).isTrue();
    HeaderValueOption destination =
        common.getHeaderMutation().getSetHeadersList().stream()
            .filter(h -> h.getHeader().getKey().equals(Responses.DESTINATION))
            .findFirst()
            .orElseThrow();
    String address = destination.getHeader().getRawValue().toString(StandardCharsets.UTF_8);
    assertThat(address).matches("127\\.0\\.0\\.1:\\d+");
    assertThat(destination.getHeader().getValue()).isEmpty();
    assertThat(
            first
                .getDynamicMetadata()
                .getFieldsOrThrow(Responses.LB_NAMESPACE)
                .getStructValue()
                .getFieldsOrThrow(Responses.DESTINATION)
                .getStringValue())
        .isEqualTo(address);

    List<StreamedBodyResponse> chunks = bodyChunks(replies);
    assertThat(replies).hasSize(1 + chunks.size() + 1);
    assertThat(replies.getLast().hasRequestTrailers()).isTrue();
    ByteString echoed = ByteString.EMPTY;
    for (int i = 0; i < chunks.size(); i++) {
      assertThat(chunks.get(i).getBody().size()).isBetween(1, 62_000);
      assertThat(chunks.get(i).getEndOfStream()).isEqualTo(i == chunks.size() - 1);
      echoed = echoed.concat(chunks.get(i).getBody());
    }
    assertThat(echoed.toByteArray()).isEqualTo(body);
  }

  private static List<StreamedBodyResponse> bodyChunks(List<ProcessingResponse> replies) {
    return replies.stream()
        .filter(ProcessingResponse::hasRequestBody)
        .map(r -> r.getRequestBody().getResponse().getBodyMutation().getStreamedResponse())
        .toList();
  }

  /**
   * Envoy's sequence: request headers, the body in 16 KiB chunks with end of stream on the last,
   * then (trailer mode SEND) the trailers; returns every reply up to the trailers reply.
   */
  private static List<ProcessingResponse> exchange(ExtProcLoad.Target target, byte[] body)
      throws Exception {
    ManagedChannel channel = ExtProcLoad.channel(target.port(), target.certificatePem());
    try {
      LinkedBlockingQueue<ProcessingResponse> replies = new LinkedBlockingQueue<>();
      CountDownLatch done = new CountDownLatch(1);
      StreamObserver<ProcessingRequest> out =
          ExternalProcessorGrpc.newStub(channel)
              .process(
                  new StreamObserver<>() {
                    @Override
                    public void onNext(ProcessingResponse r) {
                      replies.add(r);
                    }

                    @Override
                    public void onError(Throwable t) {
                      done.countDown();
                    }

                    @Override
                    public void onCompleted() {
                      done.countDown();
                    }
                  });
      out.onNext(ExtProcLoad.headers());
      for (int at = 0; at < body.length; at += ENVOY_CHUNK) {
        int end = Math.min(body.length, at + ENVOY_CHUNK);
        out.onNext(
            ProcessingRequest.newBuilder()
                .setRequestBody(
                    HttpBody.newBuilder()
                        .setBody(ByteString.copyFrom(body, at, end - at))
                        .setEndOfStream(end == body.length))
                .build());
      }
      out.onNext(
          ProcessingRequest.newBuilder()
              .setRequestTrailers(HttpTrailers.getDefaultInstance())
              .build());
      List<ProcessingResponse> got = new ArrayList<>();
      while (got.isEmpty() || !got.getLast().hasRequestTrailers()) {
        ProcessingResponse r = replies.poll(30, TimeUnit.SECONDS);
        assertThat(r).as("a reply within 30 s after %s", got).isNotNull();
        got.add(r);
      }
      out.onCompleted();
      assertThat(done.await(30, TimeUnit.SECONDS)).as("the server ends the stream").isTrue();
      return got;
    } finally {
      channel.shutdownNow();
    }
  }
}
