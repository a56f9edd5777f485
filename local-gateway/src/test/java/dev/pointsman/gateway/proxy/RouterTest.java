package dev.pointsman.gateway.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.gateway.config.HostPort;
import dev.pointsman.gateway.http.HeaderList;
import dev.pointsman.inference.request.PathNormalizer;
import java.util.List;
import org.junit.jupiter.api.Test;

class RouterTest {
  private final HostPort a = new HostPort("10.0.0.1", 8000);
  private final HostPort b = new HostPort("10.0.0.2", 8000);

  @Test
  void aDestinationHeaderTakesTheOriginalDstRouteReadAtConnectTime() {
    Router router = new Router(List.of(a));
    HeaderList h = new HeaderList().add(Router.DESTINATION, "10.0.3.7:8000");

    Router.Route route = router.match(h);
    h.set(Router.DESTINATION, "10.0.3.8:8000");

    assertThat(route).isEqualTo(Router.Route.ORIGINAL_DST);
    assertThat(router.target(route, h))
        .isEqualTo(new Router.Target.Host(new HostPort("10.0.3.8", 8000)));
  }

  @Test
  void thePickersH2cWordTakesTheH2cRouteToTheSameHost() {
    Router router = new Router(List.of(HostPort.parse("10.0.0.1:8000")));
    HeaderList h2c =
        new HeaderList()
            .add(Router.DESTINATION, "10.0.3.7:8000")
            .add(Router.APP_PROTOCOL, "kubernetes.io/h2c");
    HeaderList other =
        new HeaderList().add(Router.DESTINATION, "10.0.3.7:8000").add(Router.APP_PROTOCOL, "http");

    assertThat(router.match(h2c)).isEqualTo(Router.Route.ORIGINAL_DST_H2C);
    assertThat(router.match(h2c).h2c()).isTrue();
    assertThat(router.target(router.match(h2c), h2c))
        .isEqualTo(new Router.Target.Host(HostPort.parse("10.0.3.7:8000")));
    assertThat(router.match(other)).isEqualTo(Router.Route.ORIGINAL_DST);
    assertThat(router.match(new HeaderList().add(Router.APP_PROTOCOL, "kubernetes.io/h2c")))
        .isEqualTo(Router.Route.FALLBACK);
  }

  @Test
  void theFleetsFallbacksAreReadInOrderOnlyOnThePickedRouteAndABadListIsNone() {
    Router router = new Router(List.of(a));
    HeaderList h =
        new HeaderList()
            .add(Router.DESTINATION, "10.0.3.7:8000")
            .add(Router.FALLBACKS, "10.0.4.1:8443, [fd00::1]:8443");

    assertThat(router.fallbacks(router.match(h), h))
        .containsExactly(HostPort.parse("10.0.4.1:8443"), HostPort.parse("[fd00::1]:8443"));
    assertThat(router.fallbacks(Router.Route.FALLBACK, h)).isEmpty();
    h.set(Router.FALLBACKS, "10.0.4.1:8443,gateway.example:8443");
    assertThat(router.fallbacks(router.match(h), h)).isEmpty();
    h.set(Router.FALLBACKS, "");
    assertThat(router.fallbacks(router.match(h), h)).isEmpty();
  }

  @Test
  void noDestinationTakesTheFallbackRouteRoundRobin() {
    Router router = new Router(List.of(a, b));
    HeaderList h = new HeaderList();

    Router.Route route = router.match(h);

    assertThat(route).isEqualTo(Router.Route.FALLBACK);
    assertThat(List.of(router.target(route, h), router.target(route, h), router.target(route, h)))
        .containsExactly(
            new Router.Target.Host(a), new Router.Target.Host(b), new Router.Target.Host(a));
  }

  @Test
  void noDestinationAndNoFallbackIsNoRoute() {
    Router router = new Router(List.of());

    assertThat(router.target(router.match(new HeaderList()), new HeaderList()))
        .isInstanceOf(Router.Target.None.class);
  }

  @Test
  void aListOrANameIsNoHealthyUpstream() {
    Router router = new Router(List.of(a));
    for (String bad : List.of("10.0.3.7:8000,10.0.3.8:8000", "pod:8000", "garbage")) {
      HeaderList h = new HeaderList().add(Router.DESTINATION, bad);
      assertThat(router.target(router.match(h), h)).isInstanceOf(Router.Target.None.class);
    }
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource({
    "POST, /v1/chat/completions, 0",
    "POST, /v1/responses, 0",
    "GET, /v1/models, 0",
    "HEAD, /v1/models/org/name, 0",
    "POST, /v1/load_lora_adapter, 404",
    "POST, /v1/../metrics, 404",
    "GET, /v1/chat/completions, 404",
    "POST, /v1/chat%2Fcompletions, 400",
  })
  void offTheInferenceApiTheGatewayAnswersItself(String method, String path, int status) {
    Router router = new Router(List.of(a));

    var error = router.refusal(method, PathNormalizer.normalize(path));

    assertThat(error == null ? 0 : error.httpStatus()).isEqualTo(status);
  }
}
