package dev.pointsman.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GatewayConfigTest {

  @Test
  void defaultsMatchTheShippedEnvoyConfig() {
    GatewayConfig c = GatewayConfig.parse("{}");

    assertThat(c.failureModeAllow()).isFalse();
    assertThat(c.listen().port()).isEqualTo(8443);
    assertThat(c.listen().tls()).isEqualTo("self-signed");
    assertThat(c.timeouts().upstreamConnectMillis()).isEqualTo(2_000);
    assertThat(c.timeouts().streamIdleMillis()).isEqualTo(600_000);
    assertThat(c.timeouts().pickerConnectMillis()).isEqualTo(1_000);
    assertThat(c.limits().maxHeaderBytes()).isEqualTo(64 * 1024);
    // deploy/envoy/envoy.yaml: request_headers_timeout, idle_timeout, max_concurrent_streams
    assertThat(c.timeouts().requestHeadersMillis()).isEqualTo(10_000);
    assertThat(c.timeouts().idleConnectionMillis()).isEqualTo(3_600_000);
    assertThat(c.limits().maxConcurrentStreams()).isEqualTo(1024);
    assertThat(c.fallback()).isEmpty();
    assertThat(c.admin()).isNull();
  }

  @Test
  void anIpv6ListenAddressMayBeBracketed() {
    assertThat(GatewayConfig.parse("listen: {host: \"[::1]\"}").listen().host()).isEqualTo("::1");
    assertThat(GatewayConfig.parse("listen: {host: \"::\"}").listen().host()).isEqualTo("::");
  }

  @Test
  void readsAFullFile() {
    GatewayConfig c =
        GatewayConfig.parse(
            """
            listen: {host: 127.0.0.1, port: 9443, tls: plaintext}
            picker: {address: "picker.local:9002", tls: plaintext}
            failureModeAllow: true
            fallbackEndpoints: ["10.0.0.1:8000", "vllm-default.models.svc:8000"]
            timeouts: {upstreamConnectMillis: 500, streamIdleMillis: 1000}
            admin: {port: 0}
            """);

    assertThat(c.failureModeAllow()).isTrue();
    assertThat(c.picker().plaintext()).isTrue();
    assertThat(c.fallback())
        .containsExactly(
            new HostPort("10.0.0.1", 8000), new HostPort("vllm-default.models.svc", 8000));
    assertThat(c.admin().host()).isEqualTo("127.0.0.1");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "listen: {port: 70000}                 | listen.port: 70000 (expected 0..65535)",
        "listen: {tls: mtls}                   | listen.tls: 'mtls' (expected self-signed, files",
        "listen: {tls: files}                  | listen.tls: files (expected certChain",
        "picker: {address: nowhere}            | picker.address: 'nowhere' (expected host:port)",
        "picker: {tls: plaintext, caFile: a}   | picker.tls: plaintext (expected no caFile",
        "fallbackEndpoints: [\"a:b\"]          | fallbackEndpoints[0]: 'a:b' (expected a numeric",
        "timeouts: {streamIdleMillis: 0}       | timeouts.streamIdleMillis: 0 (expected >= 1)",
        "limits: {responseWindowBytes: 10}     | limits.responseWindowBytes: 10 (expected >= 1024)",
        "timeouts: {requestHeadersMillis: 0}   | timeouts.requestHeadersMillis: 0 (expected >= 1)",
        "timeouts: {idleConnectionMillis: -1}  | timeouts.idleConnectionMillis: -1 (expected >= 1)",
        "limits: {maxConcurrentStreams: 0}     | limits.maxConcurrentStreams: 0 (expected >= 1)",
        "listen: {prot: 1}                     | listen.prot: unknown property",
      })
  void errorsNameThePath(String yaml, String message) {
    assertThatThrownBy(() -> GatewayConfig.parse(yaml))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(message);
  }
}
