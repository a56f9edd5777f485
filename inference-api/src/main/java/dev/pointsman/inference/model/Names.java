package dev.pointsman.inference.model;

/** Formatting of values in validation messages. */
final class Names {
  private static final int MAX_SHOWN = 100;

  private Names() {}

  /** A string value as shown in a message: quoted, abbreviated, or {@code null}. */
  static String quote(String value) {
    if (value == null) {
      return "null";
    }
    String shown = value.length() > MAX_SHOWN ? value.substring(0, MAX_SHOWN) + "..." : value;
    return '"' + shown + '"';
  }

  /** A number as shown in a message: integral values without a fraction. */
  static String number(double value) {
    return value == Math.rint(value) && !Double.isInfinite(value)
        ? Long.toString((long) value)
        : Double.toString(value);
  }

  static boolean isBlank(String value) {
    return value == null || value.isBlank();
  }
}
