package dev.pointsman.picker.scheduling.prefix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.inference.request.PromptChars;
import dev.pointsman.picker.scheduling.Fixtures;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PrefixHasherTest {
  private final PrefixHasher hasher = new PrefixHasher(64, 256);
  private final String text = Fixtures.text(new SplittableRandom(1), 64 * 10);

  @Test
  void sameTextAndModelGiveSameHashes() {
    assertThat(hasher.hash("m", text)).containsExactly(hasher.hash("m", new StringBuilder(text)));
  }

  @Test
  void theParsedPromptHashesAsItsStringInEitherWidth() {
    // the parser's kept prompt holds a byte a character while every character is Latin-1 and
    // two from the first one past it: either way the hashes are the String's
    String latin1 = text + "café ñ" + "\u00ff".repeat(70);
    String wide = text + "curly ’ quotes, 世界 and 🙂 " + "x".repeat(130);
    for (String t : new String[] {text, latin1, wide}) {
      assertThat(hasher.hash("m", PromptChars.of(t))).containsExactly(hasher.hash("m", t));
    }
  }

  @Test
  void theHashesAreThoseEarlierReleasesGave() {
    // replicas share block hashes (the replicated prefix index), and during a rolling update
    // replicas of two releases route side by side: a release that hashed differently would match
    // nothing the other inserted. These are the hashes the first four-lane hasher gave.
    StringBuilder t = new StringBuilder();
    for (int i = 0; i < 300; i++) {
      t.append((char) ('a' + i * 7 % 26)).append(i % 11 == 0 ? " " : "");
    }

    assertThat(PrefixHasher.DEFAULT.hash("meta-llama/Llama-3.1-8B-Instruct", t))
        .containsExactly(
            0x36013c6224cea475L,
            0x8554e75343e6a0afL,
            0x5249281b971f0487L,
            0x523bae57aae43478L,
            0xb8a80fcee8b274e2L);
  }

  @Test
  void differentModelGivesDifferentHashesFromTheFirstBlock() {
    long[] a = hasher.hash("llama", text);
    long[] b = hasher.hash("mistral", text);

    assertThat(a[0]).isNotEqualTo(b[0]);
    for (int i = 0; i < a.length; i++) {
      assertThat(a[i]).isNotEqualTo(b[i]);
    }
  }

  @Test
  void sharedPrefixGivesSharedLeadingHashesOnly() {
    String other = text.substring(0, 64 * 4) + "X" + text.substring(64 * 4 + 1);

    long[] a = hasher.hash("m", text);
    long[] b = hasher.hash("m", other);

    assertThat(Arrays.copyOf(b, 4)).containsExactly(Arrays.copyOf(a, 4));
    for (int i = 4; i < a.length; i++) {
      assertThat(b[i]).as("block %d follows a differing block", i).isNotEqualTo(a[i]);
    }
  }

  @Test
  void blocksAreDistinctWithinOnePrompt() {
    String repeated = "x".repeat(64 * 8);

    assertThat(hasher.hash("m", repeated)).doesNotHaveDuplicates();
  }

  @ParameterizedTest(name = "{0} chars, {1}-char blocks, max {2} -> {3} blocks")
  @CsvSource({
    "0,     64, 256, 0",
    "63,    64, 256, 0",
    "64,    64, 256, 1",
    "200,   64, 256, 3", // the partial last block is not hashed
    "20000, 64, 256, 256", // capped
    "20000, 64, 10,  10",
    "5,     1,  256, 5",
  })
  void blockCount(int chars, int blockChars, int maxBlocks, int expected) {
    String t = Fixtures.text(new SplittableRandom(2), chars);

    assertThat(new PrefixHasher(blockChars, maxBlocks).hash("m", t)).hasSize(expected);
  }

  @Test
  void cappedHashesArePrefixOfUncapped() {
    String t = Fixtures.text(new SplittableRandom(3), 64 * 300);

    assertThat(new PrefixHasher(64, 256).hash("m", t))
        .containsExactly(Arrays.copyOf(new PrefixHasher(64, 1000).hash("m", t), 256));
  }

  @Test
  void blocksDifferingInTheHighCharactersOfTwoWordsStillHashApart() {
    // Characters are folded in four to a word; changes confined to a word's top character must not
    // cancel out in a later word (they would if the high bits never reached the low ones).
    PrefixHasher hasher = new PrefixHasher(64, 1);
    char[] base = "a".repeat(64).toCharArray();
    Set<Long> seen = new HashSet<>();
    seen.add(hasher.hash("m", new String(base))[0]);
    base[3] = 'b';
    for (int c = 0; c <= Character.MAX_VALUE; c++) {
      base[7] = (char) c;
      assertThat(seen.add(hasher.hash("m", new String(base))[0])).as("char %d", c).isTrue();
    }
  }

  @Test
  void everyCharacterOfABlockCountsWhicheverLaneItFallsIn() {
    PrefixHasher hasher = new PrefixHasher(64, 1);
    char[] base = "a".repeat(64).toCharArray();
    Set<Long> seen = new HashSet<>();
    seen.add(hasher.hash("m", new String(base))[0]);
    for (int i = 0; i < 64; i++) {
      for (char c : new char[] {'b', '\u00e9', '\u4e2d', '\uffff'}) {
        char[] t = base.clone();
        t[i] = c;
        assertThat(seen.add(hasher.hash("m", new String(t))[0])).as("%d = %s", i, c).isTrue();
      }
    }
  }

  @Test
  void wordsSwappedBetweenLanesOrRoundsHashApart() {
    // the four lanes take words 0-3, 4-7 ...: a word moved to another lane, or to another round of
    // the same lane, changes the hash, and so do lanes that hold the same words
    PrefixHasher hasher = new PrefixHasher(64, 1);
    String w = "wxyz";
    String o = "oooo";
    Set<Long> seen = new HashSet<>();
    for (int at = 0; at < 16; at++) {
      String t = o.repeat(at) + w + o.repeat(15 - at);
      assertThat(seen.add(hasher.hash("m", t)[0])).as("word at %d", at).isTrue();
    }
    assertThat(seen.add(hasher.hash("m", o.repeat(16))[0])).isTrue();
    assertThat(seen.add(hasher.hash("m", (w + w + o + o).repeat(4))[0])).isTrue();
    assertThat(seen.add(hasher.hash("m", (o + o + w + w).repeat(4))[0])).isTrue();
  }

  @ParameterizedTest(name = "{0}-char blocks")
  @CsvSource({"1", "3", "4", "5", "8", "12", "15", "16", "20", "28", "31", "64", "100"})
  void anyBlockLengthHashesEveryCharacter(int blockChars) {
    PrefixHasher hasher = new PrefixHasher(blockChars, 1);
    char[] base = "q".repeat(blockChars).toCharArray();
    long plain = hasher.hash("m", new String(base))[0];
    for (int i = 0; i < blockChars; i++) {
      char[] t = base.clone();
      t[i] = 'r';
      assertThat(hasher.hash("m", new String(t))[0]).as("char %d", i).isNotEqualTo(plain);
    }
  }

  @Test
  void aBlockLengthNotAMultipleOfFourHashesEveryCharacter() {
    PrefixHasher hasher = new PrefixHasher(7, 2);
    String t = "abcdefgABCDEFG";
    long[] h = hasher.hash("m", t);
    assertThat(hasher.hash("m", "abcdefxABCDEFG")[0]).isNotEqualTo(h[0]); // the odd tail character
    assertThat(hasher.hash("m", "abcdefgABCDEFx")[1]).isNotEqualTo(h[1]);
    assertThat(hasher.hash("m", "abcdefgABCDEFx")[0]).isEqualTo(h[0]);
  }

  @Test
  void rejectsBadGeometry() {
    assertThatThrownBy(() -> new PrefixHasher(0, 1)).hasMessage("blockChars: 0 (expected >= 1)");
    assertThatThrownBy(() -> new PrefixHasher(64, 0)).hasMessage("maxBlocks: 0 (expected >= 1)");
  }
}
