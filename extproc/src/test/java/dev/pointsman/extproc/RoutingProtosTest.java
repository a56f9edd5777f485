package dev.pointsman.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RoutingProtosTest {

  @Test
  void aRoutingReplyIsTheSameMessageWhetherItsPartsAreReusedOrNot() {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(Responses.DESTINATION, "10.0.0.7:8000");
    headers.put("x-gateway-model-name", "llama");
    headers.put("x-request-id", "r-1");
    ProcessingResponse first = Responses.routeOnHeaders("10.0.0.7:8000", null, headers);
    ProcessingResponse again = Responses.routeOnHeaders("10.0.0.7:8000", null, headers);

    assertThat(again).isEqualTo(first);
    assertThat(first.getDynamicMetadata())
        .isEqualTo(Responses.destinationMetadata("10.0.0.7:8000", null));
    var set = first.getRequestHeaders().getResponse().getHeaderMutation().getSetHeadersList();
    assertThat(set).hasSize(3);
    for (int i = 0; i < set.size(); i++) {
      String name = set.get(i).getHeader().getKey();
      assertThat(set.get(i)).isEqualTo(Responses.header(name, headers.get(name)));
    }
    // with fallbacks the metadata names them too
    assertThat(
            Responses.routeOnHeaders("10.0.0.7:8000", "10.0.0.8:8000", headers)
                .getDynamicMetadata())
        .isEqualTo(Responses.destinationMetadata("10.0.0.7:8000", "10.0.0.8:8000"));
  }

  @Test
  void repeatedValuesShareOneMessageAndOthersAreBuiltEachTime() {
    assertThat(RoutingProtos.header(Responses.DESTINATION, "10.0.0.9:8000"))
        .isSameAs(RoutingProtos.header(Responses.DESTINATION, "10.0.0.9:8000"));
    assertThat(RoutingProtos.metadata("10.0.0.9:8000"))
        .isSameAs(RoutingProtos.metadata("10.0.0.9:8000"));
    assertThat(RoutingProtos.repeats("x-request-id")).isFalse();
  }

  @Test
  void theCachesStayBoundedAndCorrectPastTheirBound() {
    for (int i = 0; i <= RoutingProtos.BOUND * 2; i++) {
      String address = "10.1." + (i / 250) + "." + (i % 250) + ":8000";
      assertThat(RoutingProtos.metadata(address))
          .isEqualTo(Responses.destinationMetadata(address, null));
      assertThat(
              RoutingProtos.header(Responses.DESTINATION, address)
                  .getHeader()
                  .getRawValue()
                  .toStringUtf8())
          .isEqualTo(address);
    }
  }
}
