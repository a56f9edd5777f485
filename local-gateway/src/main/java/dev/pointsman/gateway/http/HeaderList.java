package dev.pointsman.gateway.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * An HTTP header block as Envoy's filters see it: ordered name/value pairs, names lower-case,
 * pseudo-headers ({@code :method}, {@code :path}, {@code :authority}, {@code :scheme}, {@code
 * :status}) first. Not thread-safe: owned by one request.
 */
public final class HeaderList {
  private final List<Map.Entry<String, String>> entries = new ArrayList<>();

  public HeaderList add(String name, String value) {
    entries.add(Map.entry(name.toLowerCase(Locale.ROOT), value));
    return this;
  }

  /** Replaces every value of {@code name} with one, kept at the first one's position. */
  public HeaderList set(String name, String value) {
    String n = name.toLowerCase(Locale.ROOT);
    int at = indexOf(n);
    remove(n);
    if (at < 0 || at > entries.size()) {
      entries.add(Map.entry(n, value));
    } else {
      entries.add(at, Map.entry(n, value));
    }
    return this;
  }

  public HeaderList remove(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    entries.removeIf(e -> e.getKey().equals(n));
    return this;
  }

  /** The first value of {@code name}, or null. */
  public String get(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    for (Map.Entry<String, String> e : entries) {
      if (e.getKey().equals(n)) {
        return e.getValue();
      }
    }
    return null;
  }

  public boolean contains(String name) {
    return indexOf(name.toLowerCase(Locale.ROOT)) >= 0;
  }

  public void forEach(BiConsumer<String, String> action) {
    entries.forEach(e -> action.accept(e.getKey(), e.getValue()));
  }

  public List<Map.Entry<String, String>> entries() {
    return List.copyOf(entries);
  }

  public int size() {
    return entries.size();
  }

  private int indexOf(String lowerName) {
    for (int i = 0; i < entries.size(); i++) {
      if (entries.get(i).getKey().equals(lowerName)) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public String toString() {
    return entries.toString();
  }
}
