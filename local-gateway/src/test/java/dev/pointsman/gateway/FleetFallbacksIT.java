package dev.pointsman.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.pointsman.gateway.app.LocalGateway;
import dev.pointsman.gateway.config.PickerSection;
import io.micrometer.core.instrument.Counter;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * The fleet tier's fallbacks ({@code x-pointsman-fleet-fallbacks}), as the local gateway honours
 * them: a destination that refuses the connection is replaced by the next fallback, in order; a
 * destination that accepted the request is never replaced, whatever happens next.
 */
class FleetFallbacksIT {
  private static final String FALLBACKS = "x-pointsman-fleet-fallbacks";
  private static final RawUpstream.Answer OK =
      new RawUpstream.Answer(
          true,
          "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nx-pointsman-served-by: spare\r\n"
              + "content-length: 2\r\n\r\n{}",
          false);

  @Test
  void aRefusedConnectionIsResentToTheNextFallbackInOrder() throws Exception {
    String refused = FailureModeIT.refusing();
    try (RawUpstream spare = new RawUpstream(OK);
        FakePicker fake =
            new FakePicker(
                FakePicker.routingTo(
                    FailureModeIT.refusing(),
                    FALLBACKS,
                    refused + "," + spare.address() + "," + refused));
        LocalGateway gw = gateway(fake)) {
      HttpResponse<String> res = FailureModeIT.post(gw);

      assertThat(res.statusCode()).isEqualTo(200);
      assertThat(res.headers().firstValue("x-pointsman-served-by")).hasValue("spare");
      assertThat(spare.connections()).isEqualTo(1);
      assertThat(retries(gw)).isEqualTo(2); // the destination, then the first fallback refused
    }
  }

  @Test
  void withoutFallbacksARefusedConnectionIsTheGatewaysOwn503() throws Exception {
    try (FakePicker fake = new FakePicker(FakePicker.routingTo(FailureModeIT.refusing()));
        LocalGateway gw = gateway(fake)) {
      HttpResponse<String> res = FailureModeIT.post(gw);

      assertThat(res.statusCode()).isEqualTo(503);
      assertThat(res.body()).contains("upstream_connect_error");
      assertThat(retries(gw)).isZero();
    }
  }

  @Test
  void aRequestTheDestinationAcceptedIsNotResentWhenItResetsBeforeAnswering() throws Exception {
    try (RawUpstream resetting = RawUpstream.resetting(() -> true);
        RawUpstream spare = new RawUpstream(new RawUpstream.Answer(true, "", true));
        FakePicker fake =
            new FakePicker(FakePicker.routingTo(resetting.address(), FALLBACKS, spare.address()));
        LocalGateway gw = gateway(fake)) {
      HttpResponse<String> res = FailureModeIT.post(gw);

      // the request reached the model server: it may have started, so it is not sent again
      assertThat(res.statusCode()).isEqualTo(503);
      assertThat(res.body()).contains("upstream_reset_before_headers");
      assertThat(resetting.connections()).isEqualTo(1);
      assertThat(spare.connections()).isZero();
      assertThat(retries(gw)).isZero();
    }
  }

  @Test
  void aResponseThatStartedAndBrokeIsNotResent() throws Exception {
    try (RawUpstream breaking =
            new RawUpstream(
                new RawUpstream.Answer(
                    true, "HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\npartial", true));
        RawUpstream spare = new RawUpstream(new RawUpstream.Answer(true, "", true));
        FakePicker fake =
            new FakePicker(FakePicker.routingTo(breaking.address(), FALLBACKS, spare.address()));
        LocalGateway gw = gateway(fake)) {
      Throwable failure = catchThrowable(() -> FailureModeIT.post(gw));

      assertThat(failure).isNotNull(); // the client's response is cut, as Envoy resets it
      assertThat(spare.connections()).isZero();
      assertThat(retries(gw)).isZero();
    }
  }

  private static LocalGateway gateway(FakePicker picker) {
    return FailureModeIT.gateway(PickerSection.plaintext(picker.address()), c -> c);
  }

  private static double retries(LocalGateway gw) {
    Counter c =
        gw.metrics()
            .registry()
            .find("pointsman_gateway_upstream_retries")
            .tag("reason", "connect")
            .counter();
    return c == null ? 0 : c.count();
  }
}
