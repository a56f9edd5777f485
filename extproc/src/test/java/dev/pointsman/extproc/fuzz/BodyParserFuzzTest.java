package dev.pointsman.extproc.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import dev.pointsman.inference.error.RejectReason;
import dev.pointsman.inference.error.RequestRejectedException;
import dev.pointsman.inference.request.ParsedRequest;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Arbitrary bytes, fed whole, one byte at a time and in chunks of arbitrary sizes, are either
 * parsed or refused with one of the documented rejections; the outcome does not depend on the
 * chunking; what is accepted is JSON and UTF-8 to a strict reference parser with the same model;
 * and its model can be rewritten. Seeds and findings: {@code BodyParserFuzzTestInputs/anyBytes} in
 * the test resources. {@code JAZZER_FUZZ=1} fuzzes (see docs/benchmarks.md, "Fuzzing").
 */
class BodyParserFuzzTest {
  private static final String PATH = "/v1/chat/completions";

  /** What a body the reference parser takes as a JSON object may still be refused for. */
  private static final Set<RejectReason> REFUSED_FOR_CONTENT =
      EnumSet.of(
          RejectReason.TOO_DEEP,
          RejectReason.MODEL_NOT_STRING,
          RejectReason.EMPTY_MODEL,
          RejectReason.MODEL_TOO_LONG,
          RejectReason.DUPLICATE_MODEL,
          RejectReason.TOO_LARGE);

  @FuzzTest(maxDuration = "60s")
  void anyBytes(byte[] body) {
    SplittableRandom random = new SplittableRandom(Arrays.hashCode(body));
    Outcome whole = outcome(body, List.of(body));
    Outcome bytewise = outcome(body, Bodies.bytewise(body));
    Outcome chunked = outcome(body, Bodies.split(body, random, 1 + random.nextInt(64)));

    assertThat(bytewise).as("one byte a chunk").isEqualTo(whole);
    assertThat(chunked).as("random chunks").isEqualTo(whole);

    String text = Bodies.strictUtf8(body);
    // The reference parser skips a byte-order mark; the parser under test refuses it, as strict
    // model servers do.
    JsonNode reference = text == null || text.startsWith("\uFEFF") ? null : Bodies.tree(text);
    if (whole.parsed != null) {
      assertThat(text).as("accepted body is UTF-8").isNotNull();
      assertThat(reference).as("accepted body is JSON").isNotNull();
      assertThat(reference.isObject()).isTrue();
      JsonNode model = reference.get("model");
      assertThat(whole.parsed.model()).isEqualTo(model == null ? null : model.asText());
    } else if (reference != null && reference.isObject()) {
      assertThat(whole.reason).as("refused JSON object").isIn(REFUSED_FOR_CONTENT);
    }
  }

  private static Outcome outcome(byte[] body, List<byte[]> chunks) {
    try {
      ParsedRequest parsed = Bodies.parse(PATH, chunks);
      Bodies.checkRewrite(body, parsed, "served");
      return new Outcome(withoutSpan(parsed), null);
    } catch (RequestRejectedException e) {
      Bodies.checkRejection(e);
      return new Outcome(null, e.reason());
    }
  }

  /** The span is checked through the rewrite; where a token's offset lands may vary by chunk. */
  private static ParsedRequest withoutSpan(ParsedRequest p) {
    return new ParsedRequest(
        p.model(),
        p.stream(),
        p.includeUsage(),
        p.promptPrefix(),
        p.promptChars(),
        p.estimatedPromptTokens(),
        p.maxOutputTokens(),
        p.kind());
  }

  private record Outcome(ParsedRequest parsed, RejectReason reason) {}
}
