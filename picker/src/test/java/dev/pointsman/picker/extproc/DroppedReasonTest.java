package dev.pointsman.picker.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import dev.pointsman.extproc.ExtProcSettings;
import dev.pointsman.extproc.testing.EnvoyReplay;
import dev.pointsman.extproc.testing.Replies;
import dev.pointsman.picker.scheduling.Endpoint;
import dev.pointsman.picker.scheduling.EndpointState;
import dev.pointsman.picker.scheduling.PoolSnapshot;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every 429 and 503 the picker answers says why in {@code x-llm-d-request-dropped-reason}. */
class DroppedReasonTest {
  private static final String HEADER = "x-llm-d-request-dropped-reason";
  private Fixture fx;

  @BeforeEach
  void setUp() throws Exception {
    fx = new Fixture(ExtProcSettings.DEFAULTS);
  }

  @AfterEach
  void tearDown() throws Exception {
    fx.close();
  }

  private ProcessingResponse send(String model, Metadata metadata, String... headers) {
    EnvoyReplay s =
        fx.stream().requestHeaders("POST", "/v1/chat/completions", false, metadata, headers);
    s.requestBody(Replies.chat(model, "hi", false), true);
    return s.next();
  }

  @Test
  void aShedRequestIsRejectedSaturated() {
    fx.saturateGpuA();
    ProcessingResponse r = send(Fixture.MODEL, null, "x-gateway-inference-objective", "batch");
    Replies.assertError(r, 429, null);
    assertThat(Replies.setHeaders(r.getImmediateResponse()))
        .containsEntry(HEADER, "rejected-saturated");
  }

  @Test
  void aPoolWithoutEndpointsIsRejectedNoEndpoints() {
    ProcessingResponse r = send("orphan", null);
    Replies.assertError(r, 503, null);
    assertThat(Replies.setHeaders(r.getImmediateResponse()))
        .containsEntry(HEADER, "rejected-no-endpoints");
  }

  @Test
  void aPoolWithNoReadyEndpointIsRejectedNoEndpoints() {
    fx.pools.put(
        "gpu-a",
        new PoolSnapshot(
            "gpu-a",
            List.of(
                new EndpointState(new Endpoint("10.0.0.1:8000", "gpu-a"), Fixture.idle(), false))));
    ProcessingResponse r = send(Fixture.MODEL, null);
    Replies.assertError(r, 503, null);
    assertThat(Replies.setHeaders(r.getImmediateResponse()))
        .containsEntry(HEADER, "rejected-no-endpoints");
  }

  @Test
  void aSubsetHintThatLeavesNothingIsRejectedSubsetEmpty() {
    Metadata hint =
        Metadata.newBuilder()
            .putFilterMetadata(
                "envoy.lb.subset_hint",
                Struct.newBuilder()
                    .putFields(
                        "x-gateway-destination-endpoint-subset",
                        Value.newBuilder().setStringValue("10.9.9.9:8000").build())
                    .build())
            .build();
    ProcessingResponse r = send(Fixture.MODEL, hint);
    Replies.assertError(r, 503, null);
    assertThat(Replies.setHeaders(r.getImmediateResponse()))
        .containsEntry(HEADER, "rejected-subset-empty");
  }

  @Test
  void otherErrorsCarryNoDropReason() {
    ProcessingResponse r = send("gpt-nope", null);
    Replies.assertError(r, 404, null);
    assertThat(Replies.setHeaders(r.getImmediateResponse())).doesNotContainKey(HEADER);
  }
}
