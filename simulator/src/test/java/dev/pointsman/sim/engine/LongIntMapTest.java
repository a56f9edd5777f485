package dev.pointsman.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LongIntMapTest {
  @Test
  void behavesLikeAHashMapUnderRandomPutsAndRemoves() {
    LongIntMap map = new LongIntMap(500);
    Map<Long, Integer> reference = new HashMap<>();
    SplittableRandom random = new SplittableRandom(3);
    for (int i = 0; i < 200_000; i++) {
      long key = 1 + random.nextInt(900);
      if (random.nextBoolean() && reference.size() < 500) {
        boolean added = map.putIfAbsent(key, i);
        assertThat(added).isEqualTo(reference.putIfAbsent(key, i) == null);
      } else {
        map.remove(key);
        reference.remove(key);
      }
      long probe = 1 + random.nextInt(900);
      assertThat(map.get(probe)).isEqualTo(reference.getOrDefault(probe, -1));
    }
    assertThat(map.size()).isEqualTo(reference.size());
  }
}
