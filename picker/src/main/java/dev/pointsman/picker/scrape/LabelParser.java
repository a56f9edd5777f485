package dev.pointsman.picker.scrape;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * Parses a label set {@code name="value",...} from UTF-8 bytes; one instance per parse call (not
 * thread-safe). Label strings are only built for wanted lines; unwanted lines are checked for
 * syntax alone.
 */
final class LabelParser {

  private final byte[] text;
  private byte[] buffer = new byte[64];
  private String[] pairs = new String[16];
  private int size;

  LabelParser(byte[] text) {
    this.text = text;
  }

  void clear() {
    size = 0;
  }

  /**
   * Parses from just after {@code '{'}; returns the index after {@code '}'}, or -1 when malformed.
   */
  int parse(int pos, int end, boolean keep) {
    size = 0;
    while (true) {
      pos = skipBlanks(pos, end);
      if (pos == end) {
        return -1;
      }
      if (text[pos] == '}') {
        return pos + 1;
      }
      int nameFrom = pos;
      if (!Chars.isNameStart(text[pos], false)) {
        return -1;
      }
      do {
        pos++;
      } while (pos < end && Chars.isNamePart(text[pos], false));
      int nameTo = pos;
      pos = skipBlanks(pos, end);
      if (pos == end || text[pos] != '=') {
        return -1;
      }
      pos = skipBlanks(pos + 1, end);
      if (pos == end || text[pos] != '"') {
        return -1;
      }
      pos = readValue(pos + 1, end, keep, nameFrom, nameTo);
      if (pos < 0) {
        return -1;
      }
      pos = skipBlanks(pos, end);
      if (pos < end && text[pos] == ',') {
        pos++;
      } else if (pos == end || text[pos] != '}') {
        return -1;
      }
    }
  }

  /** The labels of the last parsed line, or {@code null} when a label name repeats. */
  @SuppressWarnings("unchecked")
  Map<String, String> toMap() {
    if (size == 0) {
      return Map.of();
    }
    if (size == 2) {
      return Map.of(pairs[0], pairs[1]);
    }
    Map.Entry<String, String>[] entries = new Map.Entry[size / 2];
    for (int i = 0; i < size; i += 2) {
      entries[i / 2] = Map.entry(pairs[i], pairs[i + 1]);
    }
    try {
      return Map.ofEntries(entries);
    } catch (IllegalArgumentException duplicateName) {
      return null;
    }
  }

  private int readValue(int pos, int end, boolean keep, int nameFrom, int nameTo) {
    int from = pos;
    boolean escaped = false;
    while (pos < end) {
      byte c = text[pos];
      if (c == '"') {
        if (keep) {
          add(
              new String(text, nameFrom, nameTo - nameFrom, StandardCharsets.ISO_8859_1),
              escaped
                  ? unescape(from, pos)
                  : new String(text, from, pos - from, StandardCharsets.UTF_8));
        }
        return pos + 1;
      }
      if (c == '\\') {
        if (pos + 1 == end) {
          return -1;
        }
        escaped = true;
        pos++;
      }
      pos++;
    }
    return -1;
  }

  private String unescape(int from, int to) {
    if (buffer.length < to - from) {
      buffer = new byte[Math.max(to - from, buffer.length * 2)];
    }
    int n = 0;
    for (int i = from; i < to; i++) {
      byte c = text[i];
      if (c == '\\') {
        byte next = text[++i];
        switch (next) {
          case 'n' -> buffer[n++] = '\n';
          case '\\', '"' -> buffer[n++] = next;
          default -> {
            buffer[n++] = '\\';
            buffer[n++] = next;
          }
        }
      } else {
        buffer[n++] = c;
      }
    }
    return new String(buffer, 0, n, StandardCharsets.UTF_8);
  }

  private void add(String key, String value) {
    if (size + 2 > pairs.length) {
      pairs = Arrays.copyOf(pairs, pairs.length * 2);
    }
    pairs[size++] = key;
    pairs[size++] = value;
  }

  private int skipBlanks(int pos, int end) {
    while (pos < end && Chars.isBlank(text[pos])) {
      pos++;
    }
    return pos;
  }
}
