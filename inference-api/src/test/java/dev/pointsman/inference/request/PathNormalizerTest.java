package dev.pointsman.inference.request;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Envoy's normalisation with the shipped settings. The first rows are Envoy's own path-utility test
 * cases (what its URL library produces); the rest are the bypasses this gateway must not route.
 */
class PathNormalizerTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '>',
      value = {
        // Envoy's canonicalPath test vectors
        "/xyz > /xyz",
        "/x/y/z > /x/y/z",
        "/a/b/../c > /a/c",
        "/a/b/./c > /a/b/c",
        "a/b/../c > /a/c",
        "/a/b/../../../../c > /c",
        "/a/..\\c > /c",
        "/%c0%af > /%c0%af",
        "/%25 > /%25",
        "/a/b/%2E%2E/c > /a/c",
        "/a/b/%2E./c > /a/c",
        "/a/b/%2E/c > /a/b/c",
        ".. > /",
        "/../a/b > /a/b",
        "/./a/b > /a/b",
        "/A/B/C > /A/B/C",
        "/a/b/%2e%2e/c > /a/c",
        // merge_slashes
        "//a/b/c > /a/b/c",
        "/a///b/c > /a/b/c",
        "/a/b/c// > /a/b/c/",
        // unreserved escapes are decoded, others kept as written; disallowed characters escaped
        "/v1/%63hat/completions > /v1/chat/completions",
        "/v1/chat/completions%7e > /v1/chat/completions~",
        "/a%20b > /a%20b",
        "/a b > /a%20b",
        "/a{b}|c > /a%7Bb%7D%7Cc",
        "/%%30%30 > /%2500",
        "/a.b/.c/..d/... > /a.b/.c/..d/...",
        // the bypasses
        "/v1/../admin/faults > /admin/faults",
        "/v1/%2e%2e/admin/faults > /admin/faults",
        "/v1/chat/completions/../../metrics > /v1/metrics",
        "//v1/load_lora_adapter > /v1/load_lora_adapter",
        "/v1\\..\\admin\\faults > /admin/faults",
        "/v1/chat/completions\\..\\..\\..\\metrics > /metrics",
        "/v1/./chat/./completions > /v1/chat/completions",
        "/v1/chat/completions/. > /v1/chat/completions/",
        "/v1/chat/completions/.. > /v1/chat/",
      })
  void normalisesAsEnvoy(String in, String out) {
    NormalizedPath.Valid v = (NormalizedPath.Valid) PathNormalizer.normalize(in);

    assertThat(v.path()).isEqualTo(out);
    assertThat(v.unchanged()).isEqualTo(in.equals(out));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "/v1/chat%2Fcompletions",
        "/v1/chat%2fcompletions",
        "/v1/completions/..%2f..%2fadmin/faults",
        "/v1%5C..%5Cadmin/faults",
        "/v1%5c..%5cadmin/faults",
        "/a/%2F%2f/c",
        "/xyz/.%00../abc",
        "/xyz/%00.%00./abc",
        "/xyz/AAAAA%%0000/abc",
        "/a\u0000b",
        "/v1/chat/completions#frag",
        ""
      })
  void refusesWhatEnvoyRefuses(String in) {
    assertThat(PathNormalizer.normalize(in)).isInstanceOf(NormalizedPath.Invalid.class);
  }

  @ParameterizedTest
  @CsvSource({"/v1/models?a=b/../c, /v1/models, ?a=b/../c", "/x//y?//, /x/y, ?//"})
  void leavesTheQueryAlone(String in, String path, String query) {
    NormalizedPath.Valid v = (NormalizedPath.Valid) PathNormalizer.normalize(in);

    assertThat(v.path()).isEqualTo(path);
    assertThat(v.query()).isEqualTo(query);
    assertThat(v.target()).isEqualTo(path + query);
  }
}
