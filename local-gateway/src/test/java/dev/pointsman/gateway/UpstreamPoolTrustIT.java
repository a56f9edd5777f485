package dev.pointsman.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import dev.pointsman.gateway.app.LocalGateway;
import dev.pointsman.gateway.config.GatewayConfig;
import dev.pointsman.gateway.config.ListenSection;
import dev.pointsman.gateway.config.PickerSection;
import io.envoyproxy.envoy.config.core.v3.HeaderValue;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import io.envoyproxy.envoy.service.ext_proc.v3.CommonResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.HeaderMutation;
import io.envoyproxy.envoy.service.ext_proc.v3.HeadersResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The gateway returns a model-server connection to its pool only after a response it can trust:
 * complete, well-formed, keep-alive, and after the whole request was sent. Anything else closes the
 * connection, and a broken response reaches the client as a failure, never as a complete one.
 */
class UpstreamPoolTrustIT {
  private static final String BODY = Stack.chat(Stack.MODEL, "hi", false, 2);
  private final HttpClient client =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private FakePicker picker;

  @BeforeEach
  void start() throws Exception {
    picker = new FakePicker((req, out) -> out.onCompleted()); // requests continue unprocessed
  }

  @AfterEach
  void stop() throws Exception {
    picker.close();
  }

  @Test
  void aWellFormedKeepAliveResponseReusesTheConnection() throws Exception {
    try (RawUpstream pod = new RawUpstream(answer("200 OK", "", "{}"));
        LocalGateway gw = gateway(pod)) {
      assertThat(post(gw, BODY).statusCode()).isEqualTo(200);
      assertThat(post(gw, BODY).statusCode()).isEqualTo(200);

      assertThat(pod.connections()).isEqualTo(1);
    }
  }

  @Test
  void anErrorWithConnectionCloseIsNotReusedEvenIfTheServerKeepsItOpen() throws Exception {
    try (RawUpstream pod = new RawUpstream(answer("500 Oops", "connection: close\r\n", "{}"));
        LocalGateway gw = gateway(pod)) {
      assertThat(post(gw, BODY).statusCode()).isEqualTo(500);
      assertThat(post(gw, BODY).statusCode()).isEqualTo(500);

      assertThat(pod.connections()).isEqualTo(2);
    }
  }

  @Test
  void anAnswerBeforeTheWholeRequestWasSentReachesTheClientAndIsNotReused() throws Exception {
    // the pod answers the head at once and never reads the body, which the client is still
    // sending: the client gets the answer and a closed connection, the pod's connection is dropped
    String head =
        "POST /v1/chat/completions HTTP/1.1\r\nhost: gw\r\ncontent-type: application/json\r\n"
            + "content-length: 100000\r\n\r\n";
    String firstPart = "{\"model\": \"" + Stack.MODEL + "\", \"messages\": [";
    try (RawUpstream pod =
            new RawUpstream(
                new RawUpstream.Answer(false, answer("413 Too Large", "", "{}").bytes(), false));
        LocalGateway gw = gateway(pod);
        Socket s = new Socket("127.0.0.1", gw.port())) {
      s.setSoTimeout(20_000);
      s.getOutputStream().write((head + firstPart).getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();

      String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);

      assertThat(answer).startsWith("HTTP/1.1 413 ");
      assertThat(answer.toLowerCase(Locale.ROOT)).contains("connection: close");
      assertThat(post(gw, BODY).statusCode()).isEqualTo(413);
      assertThat(pod.connections()).isEqualTo(2);
    }
  }

  @Test
  void aMalformedResponseHeadIs502AndNotReused() throws Exception {
    try (RawUpstream pod =
            new RawUpstream(
                new RawUpstream.Answer(
                    true, "HTTP/1.1 200 OK\r\ncontent-length: nope\r\n\r\n", false));
        LocalGateway gw = gateway(pod)) {
      HttpResponse<String> res = post(gw, BODY);

      assertThat(res.statusCode()).isEqualTo(502);
      assertThat(res.body()).contains("\"error\"").contains("protocol");
      assertThat(post(gw, BODY).statusCode()).isEqualTo(502);
      assertThat(pod.connections()).isEqualTo(2);
    }
  }

  @Test
  void aMalformedChunkResetsTheClientAndIsNotReused() throws Exception {
    String broken =
        "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\nnot-a-size\r\n";
    try (RawUpstream pod = new RawUpstream(new RawUpstream.Answer(true, broken, false));
        LocalGateway gw = gateway(pod)) {
      assertThatThrownBy(() -> post(gw, BODY)).isInstanceOf(IOException.class);
      assertThatThrownBy(() -> post(gw, BODY)).isInstanceOf(IOException.class);

      assertThat(pod.connections()).isEqualTo(2);
    }
  }

  @Test
  void aResponseCutShortResetsTheClient() throws Exception {
    String cut = "HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nhello";
    try (RawUpstream pod = new RawUpstream(new RawUpstream.Answer(true, cut, true));
        LocalGateway gw = gateway(pod)) {
      assertThatThrownBy(() -> post(gw, BODY)).isInstanceOf(IOException.class);
    }
  }

  @Test
  void aResetWhileThePodHoldsTheRequestBackIsAnsweredAtOnce() throws Exception {
    // the picker routes to the pod and echoes every chunk; the pod reads nothing, so the gateway
    // stops taking echoes; once the picker has the whole body, the pod resets the connection
    AtomicBoolean bodyEnded = new AtomicBoolean();
    try (RawUpstream pod = RawUpstream.resetting(bodyEnded::get);
        FakePicker routing = new FakePicker(routingTo(pod.address(), bodyEnded));
        LocalGateway gw =
            LocalGateway.start(
                GatewayConfig.of(
                    new ListenSection("127.0.0.1", 0, "plaintext", null, null, null),
                    PickerSection.plaintext(routing.address())))) {
      String big = Stack.chat(Stack.MODEL, "a".repeat(12 << 20), false, 2);

      HttpResponse<String> res = post(gw, big);

      assertThat(res.statusCode()).isEqualTo(503);
      assertThat(res.body()).contains("upstream reset");
    }
  }

  /** Routes at the first body chunk, echoes each, lets the response through unchanged. */
  private static BiConsumer<ProcessingRequest, StreamObserver<ProcessingResponse>> routingTo(
      String destination, AtomicBoolean bodyEnded) {
    AtomicBoolean routed = new AtomicBoolean();
    return (req, out) -> {
      if (req.hasRequestBody()) {
        if (!routed.getAndSet(true)) {
          out.onNext(route(destination));
        }
        out.onNext(
            Replies.echo(
                req.getRequestBody().getBody(), req.getRequestBody().getEndOfStream(), true));
        if (req.getRequestBody().getEndOfStream()) {
          bodyEnded.set(true);
        }
      } else if (req.hasResponseHeaders()) {
        out.onNext(
            ProcessingResponse.newBuilder()
                .setResponseHeaders(HeadersResponse.getDefaultInstance())
                .build());
      } else if (req.hasResponseBody()) {
        out.onNext(
            Replies.echo(
                req.getResponseBody().getBody(), req.getResponseBody().getEndOfStream(), false));
      }
    };
  }

  private static ProcessingResponse route(String destination) {
    HeaderValueOption h =
        HeaderValueOption.newBuilder()
            .setHeader(
                HeaderValue.newBuilder()
                    .setKey("x-gateway-destination-endpoint")
                    .setRawValue(ByteString.copyFromUtf8(destination)))
            .setAppendAction(HeaderValueOption.HeaderAppendAction.OVERWRITE_IF_EXISTS_OR_ADD)
            .build();
    return ProcessingResponse.newBuilder()
        .setRequestHeaders(
            HeadersResponse.newBuilder()
                .setResponse(
                    CommonResponse.newBuilder()
                        .setHeaderMutation(HeaderMutation.newBuilder().addSetHeaders(h))
                        .setClearRouteCache(true)))
        .build();
  }

  private static RawUpstream.Answer answer(String status, String headers, String body) {
    return new RawUpstream.Answer(
        true,
        "HTTP/1.1 "
            + status
            + "\r\ncontent-type: application/json\r\ncontent-length: "
            + body.length()
            + "\r\n"
            + headers
            + "\r\n"
            + body,
        false);
  }

  private LocalGateway gateway(RawUpstream pod) {
    return LocalGateway.start(
        GatewayConfig.of(
                new ListenSection("127.0.0.1", 0, "plaintext", null, null, null),
                PickerSection.plaintext(picker.address()))
            .withFallback(List.of(pod.address())));
  }

  private HttpResponse<String> post(LocalGateway gw, String body) throws Exception {
    HttpRequest req =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gw.port() + "/v1/chat/completions"))
            .timeout(Duration.ofSeconds(20))
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    return client.send(req, HttpResponse.BodyHandlers.ofString());
  }
}
