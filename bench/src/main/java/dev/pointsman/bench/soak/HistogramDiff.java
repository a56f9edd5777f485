package dev.pointsman.bench.soak;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What grew between two class histograms of the same JVM ({@code jcmd PID GC.class_histogram},
 * which collects first, so both count live objects only): the classes whose live bytes grew most,
 * with their instance counts. A class that grows with the requests served and never comes down is
 * what a leak looks like.
 *
 * <p>Usage: {@code HistogramDiff FIRST LAST [TOP]} (default 15 rows).
 */
public final class HistogramDiff {
  private HistogramDiff() {}

  /** One class's live instances and bytes. */
  record Live(long instances, long bytes) {}

  public static void main(String[] args) throws IOException {
    if (args.length < 2) {
      System.err.println("usage: HistogramDiff FIRST LAST [TOP]");
      System.exit(2);
    }
    Map<String, Live> first = read(Path.of(args[0]));
    Map<String, Live> last = read(Path.of(args[1]));
    int top = args.length > 2 ? Integer.parseInt(args[2]) : 15;
    System.out.printf(
        "live heap: %,d B in %,d objects -> %,d B in %,d objects%n",
        total(first).bytes(),
        total(first).instances(),
        total(last).bytes(),
        total(last).instances());
    List<String> grew = new ArrayList<>(last.keySet());
    grew.sort(Comparator.comparingLong((String c) -> growth(first, last, c)).reversed());
    System.out.printf("%14s %12s  %s%n", "bytes grown", "instances", "class");
    for (String c : grew.subList(0, Math.min(top, grew.size()))) {
      Live was = first.getOrDefault(c, new Live(0, 0));
      System.out.printf(
          "%,14d %,12d  %s (%,d -> %,d)%n",
          growth(first, last, c),
          last.get(c).instances() - was.instances(),
          c,
          was.instances(),
          last.get(c).instances());
    }
  }

  private static long growth(Map<String, Live> first, Map<String, Live> last, String c) {
    return last.get(c).bytes() - first.getOrDefault(c, new Live(0, 0)).bytes();
  }

  private static Live total(Map<String, Live> h) {
    long n = 0;
    long b = 0;
    for (Live l : h.values()) {
      n += l.instances();
      b += l.bytes();
    }
    return new Live(n, b);
  }

  /** The rows of a histogram: {@code rank: instances bytes class [(module)]}. */
  static Map<String, Live> read(Path file) throws IOException {
    Map<String, Live> out = new HashMap<>();
    for (String line : Files.readAllLines(file)) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 4 && f[0].endsWith(":") && f[1].chars().allMatch(Character::isDigit)) {
        out.merge(
            f[3],
            new Live(Long.parseLong(f[1]), Long.parseLong(f[2])),
            (a, b) -> new Live(a.instances() + b.instances(), a.bytes() + b.bytes()));
      }
    }
    if (out.isEmpty()) {
      throw new IOException(file + ": no class histogram rows (expected jcmd GC.class_histogram)");
    }
    return out;
  }
}
