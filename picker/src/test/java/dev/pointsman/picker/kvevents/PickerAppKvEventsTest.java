package dev.pointsman.picker.kvevents;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.app.PickerApp;
import dev.pointsman.picker.config.PickerConfig;
import dev.pointsman.testing.Await;
import org.junit.jupiter.api.Test;

/** A local pool with {@code kvEvents.enabled} is subscribed to when the picker starts. */
class PickerAppKvEventsTest {

  @Test
  void thePickerFollowsTheEnginesOfAPoolWithEventsOn() throws Exception {
    try (FakeVllm engine = new FakeVllm()) {
      engine.publish(FakeVllm.stored(1, null, 1, 2, 3, 4));
      String yaml =
          """
          grpc: {port: 0, host: 127.0.0.1}
          admin: {port: 0, host: 127.0.0.1}
          pools:
            - name: gpu-a
              models: [llama-3-8b]
              kvEvents: {enabled: true}
              endpoints:
                - address: "127.0.0.1:9"
                  labels: {pointsman.dev/kv-events-port: "%d", pointsman.dev/kv-replay-port: "%d"}
            - name: gpu-b
              models: [llama-3-70b]
              endpoints: [{address: "127.0.0.1:10"}]
          """
              .formatted(engine.pubPort(), engine.replayPort());
      PickerApp app = new PickerApp(PickerConfig.parse(yaml), null).start();
      try {
        Await.until("the engine's block", () -> app.kvEvents().blocks("gpu-a", true) == 1);
        assertThat(app.kvEvents().subscribed("gpu-a")).containsExactly("127.0.0.1:9");
        assertThat(app.kvEvents().subscribed("gpu-b")).isEmpty();
      } finally {
        app.close();
      }
      assertThat(app.kvEvents().subscribed("gpu-a")).isEmpty();
    }
  }
}
