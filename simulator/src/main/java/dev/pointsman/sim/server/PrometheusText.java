package dev.pointsman.sim.server;

/**
 * Writes the Prometheus text exposition format (version 0.0.4): {@code # HELP} and {@code # TYPE}
 * per family, then samples with escaped label values. Counters are declared without their {@code
 * _total} suffix and sampled with it. Not thread-safe.
 */
final class PrometheusText {
  private final StringBuilder out = new StringBuilder(4096);

  /** Starts a family; {@code name} is the base name (no {@code _total} for counters). */
  PrometheusText family(String name, String type, String help) {
    out.append("# HELP ").append(name).append(' ').append(escapeHelp(help)).append('\n');
    out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    return this;
  }

  /** A sample; {@code labels} are name/value pairs. */
  PrometheusText sample(String name, double value, String... labels) {
    if (labels.length % 2 != 0) {
      throw new IllegalArgumentException(
          "labels: odd count " + labels.length + " (expected pairs)");
    }
    out.append(name);
    if (labels.length > 0) {
      out.append('{');
      for (int i = 0; i < labels.length; i += 2) {
        out.append(i == 0 ? "" : ",").append(labels[i]).append("=\"");
        out.append(escapeLabel(labels[i + 1])).append('"');
      }
      out.append('}');
    }
    out.append(' ').append(format(value)).append('\n');
    return this;
  }

  @Override
  public String toString() {
    return out.toString();
  }

  static String format(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    String s = Double.toString(v);
    return s.indexOf('E') > 0 && Math.abs(v) >= 1 ? new java.math.BigDecimal(s).toPlainString() : s;
  }

  static String escapeLabel(String v) {
    return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  static String escapeHelp(String v) {
    return v.replace("\\", "\\\\").replace("\n", "\\n");
  }
}
