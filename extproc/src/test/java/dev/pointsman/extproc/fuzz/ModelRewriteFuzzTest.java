package dev.pointsman.extproc.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.pointsman.inference.error.RejectReason;
import dev.pointsman.inference.error.RequestRejectedException;
import dev.pointsman.inference.request.ParsedRequest;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.SplittableRandom;

/**
 * Valid OpenAI bodies of every API, generated with the model anywhere (or absent), parsed in
 * arbitrary chunks and rewritten to a served name (one with the model given twice is refused as
 * {@code duplicate_model} instead): the result is valid JSON, its model is the served name, every
 * other member is as before, and every byte outside the model value is unchanged. Seeds and
 * findings: {@code ModelRewriteFuzzTestInputs/generatedBodies} in the test resources. {@code
 * JAZZER_FUZZ=1} fuzzes (see docs/benchmarks.md, "Fuzzing").
 */
class ModelRewriteFuzzTest {

  @FuzzTest(maxDuration = "60s")
  void generatedBodies(FuzzedDataProvider data) {
    String served = servedName(data);
    int maxChunk = data.consumeInt(1, 512);
    long seed = data.consumeLong();
    OpenAiBodyGenerator.Body generated = new OpenAiBodyGenerator(data).next();
    byte[] body = generated.text().getBytes(StandardCharsets.UTF_8);

    assertThat(Bodies.tree(generated.text())).as("generated %s", generated.text()).isNotNull();
    if (generated.models() > 1) {
      assertThat(
              catchThrowableOfType(
                  RequestRejectedException.class,
                  () ->
                      Bodies.parse(
                          generated.path(),
                          Bodies.split(body, new SplittableRandom(seed), maxChunk))))
          .as("two top-level models in %s", generated.text())
          .extracting(RequestRejectedException::reason)
          .isEqualTo(RejectReason.DUPLICATE_MODEL);
      return;
    }
    ParsedRequest parsed;
    try {
      parsed =
          Bodies.parse(generated.path(), Bodies.split(body, new SplittableRandom(seed), maxChunk));
    } catch (RequestRejectedException e) {
      throw new AssertionError(
          "valid body refused: " + HexFormat.of().formatHex(body) + " " + generated.text(), e);
    }

    assertThat(parsed.model()).isEqualTo(generated.model());
    Bodies.checkRewrite(body, parsed, served);
  }

  /** A name as configuration could give it: any characters, well-formed, not blank. */
  private static String servedName(FuzzedDataProvider data) {
    StringBuilder name = new StringBuilder();
    String raw = data.consumeString(30);
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      boolean pair =
          Character.isHighSurrogate(c)
              && i + 1 < raw.length()
              && Character.isLowSurrogate(raw.charAt(i + 1));
      if (pair) {
        name.append(c).append(raw.charAt(++i));
      } else {
        name.append(Character.isSurrogate(c) ? '\uFFFD' : c);
      }
    }
    return name.toString().isBlank() ? "served-" + name : name.toString();
  }
}
