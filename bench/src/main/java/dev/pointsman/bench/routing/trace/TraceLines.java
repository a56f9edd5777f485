package dev.pointsman.bench.routing.trace;

import java.io.BufferedReader;
import java.io.IOException;

/** Reads a trace file's non-blank lines one at a time; an error names the line and the format. */
final class TraceLines {
  /** Handles one line. */
  interface Handler {
    void line(String line);
  }

  private TraceLines() {}

  static void each(BufferedReader in, String source, TraceFormat format, Handler handler)
      throws IOException {
    String line;
    int lineNo = 0;
    while ((line = in.readLine()) != null) {
      lineNo++;
      if (line.isBlank()) {
        continue;
      }
      try {
        handler.line(line);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            source
                + " line "
                + lineNo
                + ": "
                + e.getMessage()
                + " (expected "
                + format.title()
                + ", "
                + format.expected()
                + ")",
            e);
      }
    }
  }
}
