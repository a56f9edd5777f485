package dev.pointsman.extproc.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;

/**
 * Builds valid OpenAI request bodies (chat, completions, embeddings, responses) from fuzzer data:
 * members in any order, the model anywhere among them (or absent, or given twice), strings with raw
 * multi-byte characters, {@code \\u} escapes and surrogate pairs, arbitrary nested values, and
 * whitespace between any two tokens. Not thread-safe: one per input.
 */
final class OpenAiBodyGenerator {
  private static final String[] PATHS = {
    "/v1/chat/completions", "/v1/completions", "/v1/embeddings", "/v1/responses"
  };
  private static final String[] SPACE = {"", "", "", " ", "\n", "\t", "\r\n  ", "  "};
  private static final String[] KEYS = {
    "temperature", "user", "n", "seed", "metadata", "tools", "x-\u00e9", "mod\u0065l_", ""
  };
  private static final int MAX_DEPTH = 8;

  private final FuzzedDataProvider data;
  private final StringBuilder out = new StringBuilder();
  private String model;

  /**
   * A generated body: where it is sent, its text, its last top-level model (or null), and how many
   * top-level model members it has (a body with more than one is to be refused).
   */
  record Body(String path, String text, String model, int models) {}

  OpenAiBodyGenerator(FuzzedDataProvider data) {
    this.data = data;
  }

  Body next() {
    String path = data.pickValue(PATHS);
    space();
    out.append('{');
    int members = data.consumeInt(0, 8);
    int modelAt = data.consumeBoolean() ? data.consumeInt(0, members) : -1;
    boolean twice = data.consumeInt(0, 9) == 0;
    int written = 0;
    int models = 0;
    for (int i = 0; i <= members; i++) {
      if (i == modelAt || twice && i == members) {
        written = member(written, () -> modelMember());
        models++;
      }
      if (i < members) {
        written = member(written, () -> apiMember(path));
      }
    }
    space();
    out.append('}');
    space();
    return new Body(path, out.toString(), model, models);
  }

  private int member(int written, Runnable member) {
    if (written > 0) {
      space();
      out.append(',');
    }
    member.run();
    return written + 1;
  }

  private void modelMember() {
    key("model");
    String name = data.consumeString(40);
    if (name.isBlank()) {
      name = "m" + name;
    }
    model = name;
    string(name);
  }

  private void apiMember(String path) {
    switch (data.consumeInt(0, 5)) {
      case 0 -> {
        key("stream");
        out.append(data.consumeBoolean());
      }
      case 1 -> {
        key(
            data.pickValue(
                new String[] {"max_tokens", "max_completion_tokens", "max_output_tokens"}));
        out.append(data.consumeInt(-5, 100_000));
      }
      case 2 -> {
        key("stream_options");
        object(
            () -> {
              key("include_usage");
              out.append(data.consumeBoolean());
            });
      }
      case 3 -> {
        key(data.pickValue(KEYS));
        value(0);
      }
      default -> prompt(path);
    }
  }

  private void prompt(String path) {
    switch (path) {
      case "/v1/chat/completions" -> {
        key("messages");
        array(data.consumeInt(0, 4), () -> message(true));
      }
      case "/v1/completions" -> {
        key("prompt");
        texts();
      }
      case "/v1/embeddings" -> {
        key("input");
        texts();
      }
      default -> {
        if (data.consumeBoolean()) {
          key("instructions");
          string(data.consumeString(60));
        } else {
          key("input");
          if (data.consumeBoolean()) {
            string(data.consumeString(60));
          } else {
            array(data.consumeInt(0, 3), () -> message(false));
          }
        }
      }
    }
  }

  private void message(boolean chat) {
    object(
        () -> {
          key("role");
          string(data.pickValue(new String[] {"system", "user", "assistant", "tool", "developer"}));
          space();
          out.append(',');
          key("content");
          if (data.consumeBoolean()) {
            string(data.consumeString(80));
          } else {
            array(data.consumeInt(0, 3), () -> part(chat));
          }
        });
  }

  private void part(boolean chat) {
    object(
        () -> {
          key("type");
          if (data.consumeBoolean()) {
            string(chat ? "text" : "input_text");
            space();
            out.append(',');
            key("text");
            string(data.consumeString(80));
          } else {
            string("image_url");
            space();
            out.append(',');
            key("image_url");
            object(
                () -> {
                  key("url");
                  string("data:image/png;base64," + data.consumeAsciiString(40));
                });
          }
        });
  }

  private void texts() {
    switch (data.consumeInt(0, 3)) {
      case 0 -> string(data.consumeString(80));
      case 1 -> array(data.consumeInt(0, 4), () -> string(data.consumeString(40)));
      case 2 -> array(data.consumeInt(0, 6), () -> out.append(data.consumeInt(0, 200_000)));
      default ->
          array(
              data.consumeInt(0, 3),
              () -> array(data.consumeInt(0, 4), () -> out.append(data.consumeInt(0, 200_000))));
    }
  }

  /** Any JSON value, nested at most {@link #MAX_DEPTH} deep. */
  private void value(int depth) {
    int kind = data.consumeInt(0, depth >= MAX_DEPTH ? 4 : 6);
    space();
    switch (kind) {
      case 0 -> out.append("null");
      case 1 -> out.append(data.consumeBoolean());
      case 2 ->
          out.append(
              data.consumeBoolean()
                  ? Long.toString(data.consumeLong())
                  : Double.toString(data.consumeRegularDouble()).replace("Infinity", "1e308"));
      case 3, 4 -> string(data.consumeString(30));
      case 5 -> array(data.consumeInt(0, 4), () -> value(depth + 1));
      default ->
          object(
              () -> {
                int n = data.consumeInt(0, 4);
                for (int i = 0; i < n; i++) {
                  if (i > 0) {
                    space();
                    out.append(',');
                  }
                  key(data.consumeBoolean() ? "model" : data.consumeString(10));
                  value(depth + 1);
                }
              });
    }
  }

  private void object(Runnable members) {
    space();
    out.append('{');
    members.run();
    space();
    out.append('}');
  }

  private void array(int n, Runnable element) {
    space();
    out.append('[');
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        space();
        out.append(',');
      }
      space();
      element.run();
    }
    space();
    out.append(']');
  }

  private void key(String name) {
    space();
    string(name);
    space();
    out.append(':');
    space();
  }

  /** {@code s} as a JSON string token, each character raw or escaped as the data says. */
  private void string(String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean pair =
          Character.isHighSurrogate(c)
              && i + 1 < s.length()
              && Character.isLowSurrogate(s.charAt(i + 1));
      boolean lone = Character.isSurrogate(c) && !pair;
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20 || lone || data.consumeInt(0, 7) == 0) {
        escape(c);
        if (pair) {
          escape(s.charAt(++i));
        }
      } else if (c == '/' && data.consumeBoolean()) {
        out.append("\\/");
      } else {
        out.append(c);
        if (pair) {
          out.append(s.charAt(++i));
        }
      }
    }
    out.append('"');
  }

  private void escape(char c) {
    switch (c) {
      case '\n' -> out.append("\\n");
      case '\t' -> out.append("\\t");
      default -> out.append(String.format(data.consumeBoolean() ? "\\u%04x" : "\\u%04X", (int) c));
    }
  }

  private void space() {
    out.append(data.pickValue(SPACE));
  }
}
