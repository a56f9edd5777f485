package dev.pointsman.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Defaults under a file: the mode's values fill what the file leaves out, at any depth. */
class YamlDefaultsTest {
  /** A config with two sections, as a role's file. */
  record Doc(GrpcSection grpc, AdminSection admin) {}

  private static final String BIND_ALL = "{grpc: {host: 0.0.0.0}, admin: {host: 0.0.0.0}}";

  @Test
  void theFileWinsKeyByKeyAndTheDefaultsFillTheRest() {
    Doc d = Yaml.read("grpc: {port: 9100}\nadmin: {host: 127.0.0.2}\n", BIND_ALL, Doc.class, "f");

    assertThat(d.grpc().host()).isEqualTo("0.0.0.0");
    assertThat(d.grpc().port()).isEqualTo(9100);
    assertThat(d.admin().host()).isEqualTo("127.0.0.2");
  }

  @Test
  void withoutDefaultsTheListenersBindLoopback() {
    Doc d = Yaml.read("grpc: {port: 9100}\n", "{}", Doc.class, "f");

    assertThat(d.grpc().host()).isEqualTo("127.0.0.1");
    assertThat(AdminSection.DEFAULTS.host()).isEqualTo("127.0.0.1");
    assertThat(GrpcSection.DEFAULTS.host()).isEqualTo("127.0.0.1");
  }

  @Test
  void errorsStillNameTheFileAndThePath() {
    assertThatThrownBy(() -> Yaml.read("grpc: {tls: nope}\n", BIND_ALL, Doc.class, "f.yaml"))
        .hasMessageStartingWith("f.yaml: grpc.tls: 'nope'");
    assertThatThrownBy(() -> Yaml.read("grpc: [1\n", BIND_ALL, Doc.class, "f.yaml"))
        .hasMessageStartingWith("f.yaml: not valid YAML");
    assertThatThrownBy(() -> Yaml.read("", BIND_ALL, Doc.class, "f.yaml"))
        .hasMessageStartingWith("f.yaml: empty");
  }
}
