package dev.pointsman.picker.scheduling.prefix;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BlockHoldersTest {
  private static final String A = "10.0.0.1:8000";
  private static final String B = "10.0.0.2:8000";

  @Test
  void anArrayHandedOutIsNeverChangedByLaterUpdates() {
    BlockHolders holders = new BlockHolders();
    String[] selfA = BlockHolders.self(A);
    holders.add(1, selfA);
    holders.add(2, selfA);
    String[] ofOne = holders.of(1);

    holders.add(2, BlockHolders.self(B));
    assertThat(holders.of(2)).containsExactly(A, B);
    holders.remove(2, A);
    assertThat(holders.of(2)).containsExactly(B);
    holders.add(1, B);

    assertThat(ofOne).containsExactly(A);
    assertThat(selfA).containsExactly(A);
    assertThat(holders.of(1)).containsExactly(A, B);
  }

  @Test
  void addingTwiceKeepsOneHolderAndRemovingTheLastForgetsTheKey() {
    BlockHolders holders = new BlockHolders();
    holders.add(7, A);
    holders.add(7, A);
    holders.add(7, BlockHolders.self(A));
    assertThat(holders.of(7)).containsExactly(A);
    holders.remove(7, B); // not a holder: nothing changes
    assertThat(holders.of(7)).containsExactly(A);
    holders.remove(7, A);
    assertThat(holders.of(7)).isEmpty();
    assertThat(holders.size()).isZero();
  }

  @Test
  void agreesWithASimpleModelOverRandomUpdatesAcrossTheKeySpace() {
    BlockHolders holders = new BlockHolders();
    Map<Long, Set<String>> model = new HashMap<>();
    SplittableRandom random = new SplittableRandom(3);
    String[] addresses = {A, B, "10.0.0.3:8000"};
    long[] keys = new long[200];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = i % 2 == 0 ? random.nextLong() : i; // hashed keys and small ones
    }
    for (int step = 0; step < 20_000; step++) {
      long key = keys[random.nextInt(keys.length)];
      String address = addresses[random.nextInt(addresses.length)];
      if (random.nextBoolean()) {
        holders.add(key, address);
        model.computeIfAbsent(key, k -> new HashSet<>()).add(address);
      } else {
        holders.remove(key, address);
        Set<String> held = model.get(key);
        if (held != null && held.remove(address) && held.isEmpty()) {
          model.remove(key);
        }
      }
    }
    for (long key : keys) {
      assertThat(holders.of(key))
          .containsExactlyInAnyOrderElementsOf(model.getOrDefault(key, Set.of()));
    }
    assertThat(holders.size()).isEqualTo(model.size());
  }
}
