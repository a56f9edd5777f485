package dev.pointsman.gateway.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.inference.request.NormalizedPath;
import dev.pointsman.inference.request.PathNormalizer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PathsTest {

  @ParameterizedTest
  @CsvSource({
    "/v1/chat/completions, /v1/chat/completions",
    "/v1//chat///completions, /v1/chat/completions",
    "/v1/./models, /v1/models",
    "/v1/x/../models?a=b/../c, /v1/models?a=b/../c",
    "/../../etc, /etc",
    "/, /",
    "/v1/, /v1/",
    "/v1\\..\\admin\\faults, /admin/faults",
    "/v1/%2e%2e/admin/faults, /admin/faults",
  })
  void mergesSlashesAndResolvesDotSegments(String in, String out) {
    assertThat(((NormalizedPath.Valid) PathNormalizer.normalize(in)).target()).isEqualTo(out);
  }

  @ParameterizedTest
  @ValueSource(strings = {"/v1/chat%2Fcompletions", "/v1%5cx", "/a%00b"})
  void refusesWhatEnvoyRefuses(String in) {
    assertThat(PathNormalizer.normalize(in)).isInstanceOf(NormalizedPath.Invalid.class);
  }
}
