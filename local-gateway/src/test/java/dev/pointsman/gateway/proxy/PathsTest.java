package dev.pointsman.gateway.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
  })
  void mergesSlashesAndResolvesDotSegments(String in, String out) {
    assertThat(Paths.normalize(in)).isEqualTo(out);
  }
}
