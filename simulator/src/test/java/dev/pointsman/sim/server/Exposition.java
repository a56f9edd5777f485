package dev.pointsman.sim.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The shape of a Prometheus text page, for comparing the simulator's pages with real captures: per
 * metric family its type and the label keys of its samples ({@code le} aside). A family is keyed by
 * its base name: a counter declared as {@code x_total} or as {@code x} is {@code x}; samples ending
 * in {@code _total}, {@code _bucket}, {@code _sum}, {@code _count} belong to the family they
 * extend. Samples of an undeclared family are keyed by their own name, type "".
 */
final class Exposition {
  /** One family: its declared type ("" if none) and label keys over all its samples. */
  record Family(String type, Set<String> labelKeys, Set<Map<String, String>> series) {}

  private static final List<String> SUFFIXES = List.of("_total", "_bucket", "_sum", "_count");

  final Map<String, Family> families = new LinkedHashMap<>();

  static Exposition parse(String text) {
    Exposition e = new Exposition();
    for (String line : text.split("\r?\n")) {
      if (line.startsWith("# TYPE ")) {
        String[] p = line.split(" ");
        e.families.put(
            base(p[2], p[3]), new Family(p[3], new TreeSet<>(), new java.util.HashSet<>()));
      } else if (!line.isBlank() && !line.startsWith("#")) {
        e.addSample(line);
      }
    }
    return e;
  }

  static Exposition resource(String name) {
    try (InputStream in = Exposition.class.getResourceAsStream("/engine-captures/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("no capture " + name);
      }
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  static String text(String name) {
    try (InputStream in = Exposition.class.getResourceAsStream("/engine-captures/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
  }

  Family family(String name) {
    return families.get(name);
  }

  private static String base(String name, String type) {
    return type.equals("counter") && name.endsWith("_total")
        ? name.substring(0, name.length() - "_total".length())
        : name;
  }

  private void addSample(String line) {
    int brace = line.indexOf('{');
    int space = line.indexOf(' ');
    String name = line.substring(0, brace >= 0 && brace < space ? brace : space);
    Map<String, String> labels = new LinkedHashMap<>();
    if (brace >= 0 && brace < space) {
      String body = line.substring(brace + 1, line.lastIndexOf('}'));
      for (String pair : body.split(",(?=[a-zA-Z_]+=\")")) {
        int eq = pair.indexOf('=');
        if (eq > 0) {
          labels.put(pair.substring(0, eq), pair.substring(eq + 2, pair.length() - 1));
        }
      }
    }
    Family f = families.get(name);
    for (int i = 0; f == null && i < SUFFIXES.size(); i++) {
      if (name.endsWith(SUFFIXES.get(i))) {
        f = families.get(name.substring(0, name.length() - SUFFIXES.get(i).length()));
      }
    }
    if (f == null) {
      f =
          families.computeIfAbsent(
              name, n -> new Family("", new TreeSet<>(), new java.util.HashSet<>()));
    }
    labels.remove("le");
    f.labelKeys().addAll(labels.keySet());
    f.series().add(labels);
  }
}
