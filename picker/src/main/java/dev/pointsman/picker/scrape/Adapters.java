package dev.pointsman.picker.scrape;

import java.util.LinkedHashSet;
import java.util.Set;

/** Decodes a comma-separated adapter list label such as {@code "a,b"} or {@code ""}. */
final class Adapters {

  private Adapters() {}

  static Set<String> split(String list) {
    if (list == null || list.isBlank()) {
      return Set.of();
    }
    Set<String> names = new LinkedHashSet<>();
    for (String part : list.split(",")) {
      String name = part.strip();
      if (!name.isEmpty()) {
        names.add(name);
      }
    }
    return Set.copyOf(names);
  }
}
