package dev.pointsman.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CowArraysTest {
  @Test
  void forksOfIntsBehaveAsIndependentCopies() {
    // given: a length that is not a multiple of the chunk size, and forks of forks
    int length = 3 * 512 + 77;
    CowInts original = new CowInts(length);
    int[] expectedOriginal = new int[length];
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 2_000; i++) {
      int at = random.nextInt(length);
      int v = random.nextInt();
      original.set(at, v);
      expectedOriginal[at] = v;
    }
    CowInts fork = original.fork();
    int[] expectedFork = expectedOriginal.clone();
    // when: both sides write, the fork forks again, and adds are mixed in
    for (int i = 0; i < 20_000; i++) {
      int at = random.nextInt(length);
      int v = random.nextInt(1000);
      if (random.nextBoolean()) {
        original.set(at, v);
        expectedOriginal[at] = v;
      } else {
        assertThat(fork.add(at, v)).isEqualTo(expectedFork[at] += v);
      }
      if (i == 10_000) {
        CowInts grandchild = fork.fork();
        grandchild.set(at, -1);
        assertThat(fork.get(at)).isEqualTo(expectedFork[at]);
      }
    }
    // then
    for (int i = 0; i < length; i++) {
      assertThat(original.get(i)).as("original[%d]", i).isEqualTo(expectedOriginal[i]);
      assertThat(fork.get(i)).as("fork[%d]", i).isEqualTo(expectedFork[i]);
    }
  }

  @Test
  void writesToTheOriginalAfterAForkDoNotReachTheFork() {
    CowLongs original = new CowLongs(1000);
    original.set(5, 42);
    CowLongs fork = original.fork();
    original.set(5, 43);
    original.set(999, 7);
    assertThat(fork.get(5)).isEqualTo(42);
    assertThat(fork.get(999)).isZero();
    fork.set(6, 9);
    assertThat(original.get(6)).isZero();
  }

  @Test
  void aCopiedMapAndItsOriginalDivergeIndependently() {
    LongIntMap original = new LongIntMap(2000);
    for (long k = 1; k <= 1500; k++) {
      original.putIfAbsent(k, (int) k);
    }
    LongIntMap copy = original.copy();
    for (long k = 1; k <= 700; k++) {
      original.remove(k);
      copy.remove(k + 700);
    }
    for (long k = 1; k <= 1500; k++) {
      assertThat(original.get(k)).isEqualTo(k <= 700 ? -1 : (int) k);
      assertThat(copy.get(k)).isEqualTo(k > 700 && k <= 1400 ? -1 : (int) k);
    }
    assertThat(original.size()).isEqualTo(800);
    assertThat(copy.size()).isEqualTo(800);
  }
}
