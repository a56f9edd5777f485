package dev.pointsman.inference.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ByteScanTest {
  private static final byte[] SPECIAL = {
    '"',
    '\\',
    0x00,
    0x1F,
    0x0A,
    (byte) 0x80,
    (byte) 0xC3,
    (byte) 0xFF,
    0x7F,
    0x20,
    0x21,
    0x5B,
    0x5D,
    0x23,
    0x1B
  };

  /** Every scan agrees with a byte-at-a-time one, wherever the byte of interest falls in a word. */
  @Test
  void agreesWithAByteAtATimeScan() {
    SplittableRandom random = new SplittableRandom(11);
    for (int round = 0; round < 20_000; round++) {
      byte[] bytes = new byte[1 + random.nextInt(40)];
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] = (byte) ('a' + random.nextInt(26));
      }
      int specials = random.nextInt(3);
      for (int s = 0; s < specials; s++) {
        bytes[random.nextInt(bytes.length)] = SPECIAL[random.nextInt(SPECIAL.length)];
      }
      int from = random.nextInt(bytes.length);
      int end = from + random.nextInt(bytes.length - from + 1);

      assertThat(ByteScan.skipAscii(bytes, from, end)).isEqualTo(naiveAscii(bytes, from, end));
      assertThat(ByteScan.skipToQuoteOrBackslash(bytes, from, end))
          .isEqualTo(naiveQuote(bytes, from, end));
      assertThat(ByteScan.skipPlainAscii(bytes, from, end)).isEqualTo(naivePlain(bytes, from, end));
      assertThat(ByteScan.skipToQuoteBackslashOrHigh(bytes, from, end))
          .isEqualTo(naiveQuoteOrHigh(bytes, from, end));
    }
  }

  @Test
  void everyByteValueIsClassifiedAsAByteAtATimeScanWould() {
    for (int v = 0; v < 256; v++) {
      for (int at = 0; at < 16; at++) {
        byte[] bytes = "abcdefghijklmnop".getBytes(StandardCharsets.US_ASCII);
        bytes[at] = (byte) v;
        assertThat(ByteScan.skipAscii(bytes, 0, 16)).isEqualTo(naiveAscii(bytes, 0, 16));
        assertThat(ByteScan.skipToQuoteOrBackslash(bytes, 0, 16))
            .isEqualTo(naiveQuote(bytes, 0, 16));
        assertThat(ByteScan.skipPlainAscii(bytes, 0, 16)).isEqualTo(naivePlain(bytes, 0, 16));
        assertThat(ByteScan.skipToQuoteBackslashOrHigh(bytes, 0, 16))
            .isEqualTo(naiveQuoteOrHigh(bytes, 0, 16));
      }
    }
  }

  private static int naiveAscii(byte[] b, int i, int end) {
    while (i < end && (b[i] & 0xFF) < 0x80) {
      i++;
    }
    return i;
  }

  private static int naiveQuote(byte[] b, int i, int end) {
    while (i < end && b[i] != '"' && b[i] != '\\') {
      i++;
    }
    return i;
  }

  private static int naiveQuoteOrHigh(byte[] b, int i, int end) {
    while (i < end && (b[i] & 0xFF) < 0x80 && b[i] != '"' && b[i] != '\\') {
      i++;
    }
    return i;
  }

  private static int naivePlain(byte[] b, int i, int end) {
    while (i < end) {
      int c = b[i] & 0xFF;
      if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') {
        break;
      }
      i++;
    }
    return i;
  }
}
