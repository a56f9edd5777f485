package dev.pointsman.inference.request;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.inference.error.RequestRejectedException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@link BodyScan}, one pass, passes on what the two passes it replaced passed on ({@link
 * Utf8Check} then {@link NameEscapes}): the same bytes in the same runs (the runs matter: what
 * follows holds separators back at a run's end) and the same refusal at the same byte, for every
 * byte value at every position and for random bodies cut at random; offered a {@link
 * BodyScan.Handoff}, it cuts the runs only just after a value string's opening quote.
 */
class BodyScanTest {
  private static final HexFormat HEX = HexFormat.of();

  private static final String TEMPLATE =
      "{\"k\\u00e9y\":\"v\u00e9\u65e5\\n\\\"\",\"\\uD83D\\uDE00\":[1,\"x\uD83D\uDE00\"],\"z\":{}}";

  @Test
  void everyByteValueAtEveryPositionGivesWhatTheTwoPassesGave() {
    byte[] template = TEMPLATE.getBytes(UTF_8);
    for (int at = 0; at < template.length; at++) {
      for (int v = 0; v < 256; v++) {
        byte[] body = template.clone();
        body[at] = (byte) v;
        for (List<byte[]> chunks : cuts(body, at)) {
          assertSameAsTheTwoPasses(chunks, "0x%02X at %d".formatted(v, at));
        }
      }
    }
  }

  @Test
  void randomBodiesCutAtRandomGiveWhatTheTwoPassesGave() {
    SplittableRandom random = new SplittableRandom(23);
    for (int round = 0; round < 20_000; round++) {
      byte[] body = randomBody(random);
      assertSameAsTheTwoPasses(randomChunks(random, body), HEX.formatHex(body));
    }
  }

  private static void assertSameAsTheTwoPasses(List<byte[]> chunks, String body) {
    assertThat(viaScan(chunks, null))
        .as("%s in %d chunks", body, chunks.size())
        .isEqualTo(viaReference(chunks));
  }

  /** A handoff that takes nothing adds cuts only after a value string's opening quote. */
  @Test
  void aHandoffThatTakesNothingCutsOnlyAfterAQuote() {
    SplittableRandom random = new SplittableRandom(29);
    for (int round = 0; round < 5_000; round++) {
      byte[] body = randomBody(random);
      List<byte[]> chunks = randomChunks(random, body);
      List<String> reference = viaReference(chunks);
      List<String> cut = viaScan(chunks, (bytes, from, limit) -> from);
      assertThat(cut.getLast()).isEqualTo(reference.getLast());
      int c = 0;
      for (String run : reference.subList(0, reference.size() - 1)) {
        StringBuilder joined = new StringBuilder(cut.get(c++));
        while (joined.length() < run.length()) {
          assertThat(joined.toString()).as("a run cut by the handoff").endsWith("22");
          joined.append(cut.get(c++));
        }
        assertThat(joined.toString()).isEqualTo(run);
      }
      assertThat(c).isEqualTo(cut.size() - 1);
    }
  }

  @Test
  void aHandoffIsOfferedValueContentUpToTheSeparatorsAChunkEndsWith() {
    byte[] body = "{\"a\":\"xy, \",\"b\":[\"p q  ".getBytes(UTF_8);
    List<String> offers = new ArrayList<>();
    BodyScan scan = new BodyScan(8);
    try {
      scan.feed(
          body,
          0,
          body.length,
          (b, o, n) -> {},
          (bytes, from, limit) -> {
            offers.add(new String(bytes, from, limit - from, UTF_8));
            return from;
          });
      scan.feed(
          body,
          body.length - 3,
          3,
          (b, o, n) -> {},
          (bytes, from, limit) -> {
            offers.add("next chunk at " + from + " to " + limit);
            return from;
          });
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    assertThat(offers)
        .containsExactly(
            "xy, \",\"b\":[\"p q", // from the first value's content to the chunk's separators
            "p q", // the second value's content, the same limit
            "next chunk at " + (body.length - 3) + " to " + (body.length - 2));
  }

  /** The check a decoder does without state agrees with the JDK's strict UTF-8 decoder. */
  @Test
  void characterEndAgreesWithTheJdkDecoder() {
    CharsetDecoder jdk =
        UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    int[] tails = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xE0, 0xFF};
    List<String> disagreements = new ArrayList<>();
    for (int lead = 0x80; lead < 0x100; lead++) {
      for (int second = 0; second < 0x100; second++) {
        for (int third : tails) {
          for (int fourth : tails) {
            byte[] bytes = {(byte) lead, (byte) second, (byte) third, (byte) fourth};
            for (int end = 1; end <= 4; end++) {
              if (BodyScan.characterEnd(bytes, 0, end) != jdkCharacterEnd(jdk, bytes, end)) {
                disagreements.add(HEX.formatHex(bytes) + " to " + end);
              }
            }
          }
        }
      }
    }
    assertThat(disagreements).isEmpty();
  }

  private static int jdkCharacterEnd(CharsetDecoder jdk, byte[] bytes, int end) {
    int lead = bytes[0] & 0xFF;
    int length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
    if (length > end) {
      return -1;
    }
    CoderResult result =
        jdk.reset().decode(ByteBuffer.wrap(bytes, 0, length), CharBuffer.allocate(4), true);
    return result.isError() ? -1 : length;
  }

  /** Whole, one byte a chunk, cut before and after {@code at}. */
  private static List<List<byte[]>> cuts(byte[] body, int at) {
    List<List<byte[]>> cuts = new ArrayList<>();
    cuts.add(List.of(body));
    cuts.add(IntStream.range(0, body.length).mapToObj(i -> new byte[] {body[i]}).toList());
    IntStream.of(at, at + 1, at + 2)
        .filter(cut -> cut > 0 && cut < body.length)
        .mapToObj(
            cut ->
                List.of(
                    Arrays.copyOfRange(body, 0, cut), Arrays.copyOfRange(body, cut, body.length)))
        .forEach(cuts::add);
    return cuts;
  }

  private static final String[] PIECES = {
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    "\"",
    "\"",
    "\"",
    "\\",
    "\\",
    "u",
    "D",
    "8",
    "3",
    "d",
    "E",
    "0",
    "a",
    " ",
    "\n",
    "\u00e9",
    "\u65e5",
    "\uD83D\uDE00",
    "\\uD83D",
    "\\uDE00",
    "\\u00e9",
    "\\\"",
    "{\"",
    "\":",
    ",\"",
    "\":\"",
  };

  private static final String[] BAD = {
    "80",
    "BF",
    "C0 AF",
    "C1",
    "E0 80 80",
    "ED A0 80",
    "F0 8F BF BF",
    "F4 90 80 80",
    "F5",
    "FF",
    "C3",
    "E6 97",
    "F0 9F 98",
    "C3 28",
  };

  private static byte[] randomBody(SplittableRandom random) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int n = random.nextInt(40);
    for (int i = 0; i < n; i++) {
      if (random.nextInt(30) == 0) {
        out.writeBytes(HexFormat.ofDelimiter(" ").parseHex(BAD[random.nextInt(BAD.length)]));
      } else {
        out.writeBytes(PIECES[random.nextInt(PIECES.length)].getBytes(UTF_8));
      }
    }
    return out.toByteArray();
  }

  private static List<byte[]> randomChunks(SplittableRandom random, byte[] body) {
    List<byte[]> chunks = new ArrayList<>();
    for (int from = 0; from < body.length; ) {
      int n = 1 + random.nextInt(body.length - from);
      byte[] chunk = new byte[n];
      System.arraycopy(body, from, chunk, 0, n);
      chunks.add(chunk);
      from += n;
    }
    return chunks;
  }

  /** Feeds a body's chunks to a stage under test, passing on to {@code sink}, then ends it. */
  private interface Stage {
    void run(BodyScan.Sink sink) throws IOException;
  }

  /** The runs passed on, in hex (empty ones left out: they change nothing), then how it ended. */
  private static List<String> runs(Stage stage) {
    List<String> out = new ArrayList<>();
    try {
      stage.run(
          (bytes, offset, length) -> {
            if (length > 0) {
              out.add(HEX.formatHex(bytes, offset, offset + length));
            }
          });
      out.add("end");
    } catch (RequestRejectedException e) {
      out.add(e.getMessage());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return out;
  }

  private static List<String> viaReference(List<byte[]> chunks) {
    Utf8Check utf8 = new Utf8Check();
    NameEscapes names = new NameEscapes(8);
    return runs(
        sink -> {
          BodyScan.Sink toNames =
              (bytes, offset, length) -> names.feed(bytes, offset, length, sink);
          for (byte[] chunk : chunks) {
            utf8.feed(chunk, 0, chunk.length, toNames);
          }
          utf8.finish();
          names.finish(sink);
        });
  }

  /** The same from a {@link BodyScan}, each chunk fed from inside a larger array. */
  private static List<String> viaScan(List<byte[]> chunks, BodyScan.Handoff handoff) {
    BodyScan scan = new BodyScan(8);
    return runs(
        sink -> {
          for (byte[] chunk : chunks) {
            byte[] padded = new byte[chunk.length + 6];
            padded[0] = '"';
            padded[padded.length - 1] = '\\';
            System.arraycopy(chunk, 0, padded, 3, chunk.length);
            scan.feed(padded, 3, chunk.length, sink, handoff);
          }
          scan.finish(sink);
        });
  }
}
