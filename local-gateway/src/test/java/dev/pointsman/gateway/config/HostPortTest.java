package dev.pointsman.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HostPortTest {

  @Test
  void parsesIpv4AndBracketedIpv6Literals() {
    assertThat(HostPort.parseIpLiteral("10.0.3.7:8000")).isEqualTo(new HostPort("10.0.3.7", 8000));
    assertThat(HostPort.parseIpLiteral("[fd00::7]:8000")).isEqualTo(new HostPort("fd00::7", 8000));
    assertThat(new HostPort("fd00::7", 8000)).hasToString("[fd00::7]:8000");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "10.0.3.7:8000,10.0.3.8:8000",
        "pod.local:8000",
        "10.0.3.7",
        "10.0.3.7:0",
        "10.0.3.7:99999",
        "300.0.0.1:80",
        "fd00::7:8000",
        " ",
        "10.0.3.7:80 "
      })
  void theDestinationHeaderMustBeExactlyOneIpAndPort(String value) {
    assertThatThrownBy(() -> HostPort.parseIpLiteral(value))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void configuredEndpointsMayBeNames() {
    assertThat(HostPort.parse("vllm-default.models.svc:8000").host())
        .isEqualTo("vllm-default.models.svc");
  }
}
