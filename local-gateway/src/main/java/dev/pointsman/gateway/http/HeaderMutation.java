package dev.pointsman.gateway.http;

import java.util.List;
import java.util.Locale;

/**
 * A header mutation from the processor, applied as Envoy applies it with the default mutation
 * rules: removals first, then sets; {@code host}, {@code :authority}, {@code :scheme}, {@code
 * :method} and {@code x-envoy-*} are not mutable (silently ignored), and pseudo-headers cannot be
 * removed.
 *
 * @param set headers to set, in order
 * @param remove header names to remove
 */
public record HeaderMutation(List<Set> set, List<String> remove) {
  public static final HeaderMutation NONE = new HeaderMutation(List.of(), List.of());

  public HeaderMutation {
    set = List.copyOf(set);
    remove = remove.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
  }

  /** How a set combines with existing values (Envoy's {@code HeaderAppendAction}). */
  public enum Action {
    APPEND_IF_EXISTS_OR_ADD,
    ADD_IF_ABSENT,
    OVERWRITE_IF_EXISTS_OR_ADD,
    OVERWRITE_IF_EXISTS
  }

  /** One header to set. */
  public record Set(String name, String value, Action action) {
    public Set {
      name = name.toLowerCase(Locale.ROOT);
    }
  }

  public boolean isEmpty() {
    return set.isEmpty() && remove.isEmpty();
  }

  public void applyTo(HeaderList headers) {
    for (String name : remove) {
      if (mutable(name) && !name.startsWith(":")) {
        headers.remove(name);
      }
    }
    for (Set s : set) {
      if (mutable(s.name())) {
        apply(headers, s);
      }
    }
  }

  private static void apply(HeaderList headers, Set s) {
    boolean exists = headers.contains(s.name());
    switch (s.action()) {
      case APPEND_IF_EXISTS_OR_ADD -> headers.add(s.name(), s.value());
      case ADD_IF_ABSENT -> {
        if (!exists) {
          headers.add(s.name(), s.value());
        }
      }
      case OVERWRITE_IF_EXISTS_OR_ADD -> headers.set(s.name(), s.value());
      case OVERWRITE_IF_EXISTS -> {
        if (exists) {
          headers.set(s.name(), s.value());
        }
      }
    }
  }

  private static boolean mutable(String name) {
    return switch (name) {
      case "host", ":authority", ":scheme", ":method" -> false;
      default -> !name.startsWith("x-envoy-");
    };
  }
}
