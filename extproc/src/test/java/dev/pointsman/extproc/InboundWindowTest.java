package dev.pointsman.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class InboundWindowTest {

  @Test
  void asksForSixteenAtOnceThenEightEachTimeEightArrived() {
    Call call = new Call();
    InboundWindow window = InboundWindow.open(call);
    assertThat(call.autoRequestDisabled).as("gRPC no longer asks after each message").isTrue();
    assertThat(call.requests).containsExactly(InboundWindow.MESSAGES);

    for (int received = 1; received <= 100; received++) {
      window.received();
      int asked = call.requests.stream().mapToInt(Integer::intValue).sum();
      assertThat(asked - received)
          .as("messages asked for and not yet arrived after %d", received)
          .isBetween(InboundWindow.MESSAGES / 2, InboundWindow.MESSAGES);
    }
    // 16, then 8 after each 8 of the 100: one ask per eight messages, not one per message
    assertThat(call.requests).hasSize(1 + 100 / 8);
    assertThat(call.requests.subList(1, call.requests.size()))
        .containsOnly(InboundWindow.MESSAGES / 2);
  }

  @Test
  void anObserverThatIsNotAServerCallsIsLeftAlone() {
    List<Object> seen = new ArrayList<>();
    StreamObserver<Object> plain =
        new StreamObserver<>() {
          @Override
          public void onNext(Object value) {
            seen.add(value);
          }

          @Override
          public void onError(Throwable t) {
            seen.add(t);
          }

          @Override
          public void onCompleted() {
            seen.add("completed");
          }
        };
    InboundWindow window = InboundWindow.open(plain);
    for (int i = 0; i < 40; i++) {
      window.received();
    }
    assertThat(seen).isEmpty();
  }

  /** A server call that records what it was asked. */
  private static final class Call extends ServerCallStreamObserver<Object> {
    final List<Integer> requests = new ArrayList<>();
    boolean autoRequestDisabled;

    @Override
    public void disableAutoRequest() {
      autoRequestDisabled = true;
    }

    @Override
    public void request(int count) {
      requests.add(count);
    }

    @Override
    public boolean isCancelled() {
      return false;
    }

    @Override
    public void setOnCancelHandler(Runnable onCancelHandler) {}

    @Override
    public void setCompression(String compression) {}

    @Override
    public boolean isReady() {
      return true;
    }

    @Override
    public void setOnReadyHandler(Runnable onReadyHandler) {}

    @Override
    public void disableAutoInboundFlowControl() {
      autoRequestDisabled = true;
    }

    @Override
    public void setMessageCompression(boolean enable) {}

    @Override
    public void onNext(Object value) {}

    @Override
    public void onError(Throwable t) {}

    @Override
    public void onCompleted() {}
  }
}
