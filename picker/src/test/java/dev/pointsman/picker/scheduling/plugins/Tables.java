package dev.pointsman.picker.scheduling.plugins;

import java.util.Arrays;

/** Parses the space-separated number lists of table-driven scorer tests. */
final class Tables {
  private Tables() {}

  static double[] doubles(String s) {
    return Arrays.stream(s.trim().split("\\s+")).mapToDouble(Double::parseDouble).toArray();
  }

  static int[] ints(String s) {
    return Arrays.stream(s.trim().split("\\s+")).mapToInt(Integer::parseInt).toArray();
  }
}
