package dev.pointsman.bench.routing.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.List;
import java.util.Locale;

/**
 * Reads the Azure LLM inference trace's CSV one row at a time. The header may list the columns in
 * any order, with others beside them (ignored); timestamps are {@code yyyy-MM-dd HH:mm:ss} with up
 * to 9 fractional digits ({@code T} between date and time also accepted). A {@code GeneratedTokens}
 * of 0 is replayed as 1 token. Anything else wrong names the line.
 */
final class AzureReader {
  private static final DateTimeFormatter TIME =
      new DateTimeFormatterBuilder()
          .appendPattern("yyyy-MM-dd")
          .optionalStart()
          .appendLiteral('T')
          .optionalEnd()
          .optionalStart()
          .appendLiteral(' ')
          .optionalEnd()
          .appendPattern("HH:mm:ss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
          .optionalEnd()
          .toFormatter(Locale.ROOT);

  private AzureReader() {}

  static void read(BufferedReader in, Trace.Builder out, String source) throws IOException {
    int[][] columns = {null};
    long[] baseSecond = {Long.MIN_VALUE};
    TraceLines.each(
        in,
        source,
        TraceFormat.AZURE,
        line -> {
          if (columns[0] == null) {
            columns[0] = header(line.startsWith("\uFEFF") ? line.substring(1) : line);
          } else {
            row(line, columns[0], baseSecond, out);
          }
        });
  }

  private static int[] header(String line) {
    List<String> names = List.of(cells(line));
    int[] columns = new int[3];
    String[] wanted = {"timestamp", "contexttokens", "generatedtokens"};
    for (int i = 0; i < wanted.length; i++) {
      columns[i] = -1;
      for (int c = 0; c < names.size(); c++) {
        if (names.get(c).toLowerCase(Locale.ROOT).equals(wanted[i])) {
          columns[i] = c;
        }
      }
    }
    if (columns[0] < 0 || columns[1] < 0 || columns[2] < 0) {
      throw new IllegalArgumentException("header " + names + " lacks a column");
    }
    return columns;
  }

  /** {@code baseSecond}: the first row's second, so that times keep sub-microsecond precision. */
  private static void row(String line, int[] columns, long[] baseSecond, Trace.Builder out) {
    String[] cells = cells(line);
    int needed = Math.max(columns[0], Math.max(columns[1], columns[2])) + 1;
    if (cells.length < needed) {
      throw new IllegalArgumentException(
          cells.length + " columns in '" + line + "' (the header has at least " + needed + ")");
    }
    double time;
    try {
      LocalDateTime t = LocalDateTime.parse(cells[columns[0]], TIME);
      long second = t.toEpochSecond(ZoneOffset.UTC);
      if (baseSecond[0] == Long.MIN_VALUE) {
        baseSecond[0] = second;
      }
      time = (second - baseSecond[0]) * 1000.0 + t.getNano() / 1e6;
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "TIMESTAMP: '" + cells[columns[0]] + "' (must be yyyy-MM-dd HH:mm:ss[.fraction])");
    }
    int input = integer("ContextTokens", cells[columns[1]], 1);
    int output = Math.max(1, integer("GeneratedTokens", cells[columns[2]], 0));
    out.add(time, input, output, new long[0]);
  }

  private static String[] cells(String line) {
    String[] cells = line.split(",", -1);
    for (int i = 0; i < cells.length; i++) {
      String c = cells[i].strip();
      if (c.length() >= 2 && c.startsWith("\"") && c.endsWith("\"")) {
        c = c.substring(1, c.length() - 1).strip();
      }
      cells[i] = c;
    }
    return cells;
  }

  private static int integer(String field, String text, int min) {
    try {
      int v = Integer.parseInt(text);
      if (v >= min) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        field + ": '" + text + "' (must be an integer >= " + min + ")");
  }
}
