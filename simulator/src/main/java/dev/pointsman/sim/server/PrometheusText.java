package dev.pointsman.sim.server;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Writes the Prometheus text exposition format (version 0.0.4): {@code # HELP} and {@code # TYPE}
 * per family, then samples with escaped label values, labels sorted by name as Python's {@code
 * prometheus_client} writes them in multiprocess mode (which vLLM, SGLang and TensorRT-LLM run).
 * Not thread-safe.
 */
final class PrometheusText {
  private final StringBuilder out = new StringBuilder(4096);

  /** Starts a family. */
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
      Integer[] order = new Integer[labels.length / 2];
      Arrays.setAll(order, i -> i * 2);
      Arrays.sort(order, Comparator.comparing(i -> labels[i]));
      out.append('{');
      for (int k = 0; k < order.length; k++) {
        int i = order[k];
        out.append(k == 0 ? "" : ",").append(labels[i]).append("=\"");
        out.append(escapeLabel(labels[i + 1])).append('"');
      }
      out.append('}');
    }
    out.append(' ').append(format(value)).append('\n');
    return this;
  }

  /** A gauge family with one series. */
  PrometheusText gauge(String name, String help, double value, String... labels) {
    return family(name, "gauge", help).sample(name, value, labels);
  }

  /**
   * A counter written as vLLM and SGLang write theirs: the family is named with its {@code _total}
   * suffix. {@code name} ends in {@code _total}.
   */
  PrometheusText counter(String name, String help, double value, String... labels) {
    return family(name, "counter", help).sample(name, value, labels);
  }

  /** A histogram family with one label set. */
  PrometheusText histogram(String name, String help, LatencyHistogram h, String... labels) {
    family(name, "histogram", help);
    return buckets(name, h, labels);
  }

  /** The samples of one histogram series (its family already started). */
  PrometheusText buckets(String name, LatencyHistogram h, String... labels) {
    for (int i = 0; i < h.buckets(); i++) {
      sample(name + "_bucket", h.cumulative(i), with(labels, "le", Double.toString(h.bound(i))));
    }
    sample(name + "_bucket", h.count(), with(labels, "le", "+Inf"));
    sample(name + "_sum", h.sum(), labels);
    return sample(name + "_count", h.count(), labels);
  }

  /** {@code labels} followed by more name/value pairs. */
  static String[] with(String[] labels, String... more) {
    String[] r = Arrays.copyOf(labels, labels.length + more.length);
    System.arraycopy(more, 0, r, labels.length, more.length);
    return r;
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
