package dev.pointsman.picker.scrape;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Combines the series of one metric. Series with a NaN, infinite or negative value are ignored;
 * when none is left the result is NaN (unknown).
 */
final class Gauges {

  private Gauges() {}

  /** Sum over series, e.g. waiting requests reported per model. */
  static double sum(List<Sample> samples, String name) {
    double total = Double.NaN;
    for (Sample s : samples) {
      if (s.name().equals(name) && valid(s.value())) {
        total = Double.isNaN(total) ? s.value() : total + s.value();
      }
    }
    return total;
  }

  /** Maximum over series, e.g. KV-cache usage. */
  static double max(List<Sample> samples, String name) {
    double max = Double.NaN;
    for (Sample s : samples) {
      if (s.name().equals(name) && valid(s.value()) && !(s.value() <= max)) {
        max = s.value();
      }
    }
    return max;
  }

  /** Mean over series, e.g. a hit rate reported per data-parallel rank. */
  static double mean(List<Sample> samples, String name) {
    double total = 0;
    int n = 0;
    for (Sample s : samples) {
      if (s.name().equals(name) && valid(s.value())) {
        total += s.value();
        n++;
      }
    }
    return n == 0 ? Double.NaN : total / n;
  }

  /** The series of {@code name} with the largest valid value, or {@code null}. */
  static Sample newest(List<Sample> samples, String name) {
    Sample best = null;
    for (Sample s : samples) {
      if (s.name().equals(name) && valid(s.value()) && (best == null || s.value() > best.value())) {
        best = s;
      }
    }
    return best;
  }

  /** A request count: rounded, clamped to int; -1 when unknown. */
  static int count(double value) {
    return Double.isNaN(value) ? -1 : (int) Math.min(Integer.MAX_VALUE, Math.round(value));
  }

  /** A fraction clamped to [0,1]; NaN stays NaN. */
  static double fraction(double value) {
    return Double.isNaN(value) ? value : Math.max(0.0, Math.min(1.0, value));
  }

  /** {@code a × b} from two positive integers given as labels or values; -1 when unknown. */
  static long product(double a, double b) {
    if (!(a >= 1) || !(b >= 1) || a * b > Long.MAX_VALUE) {
      return -1;
    }
    return (long) a * (long) b;
  }

  /** A label holding a non-negative integer, or NaN. */
  static double labelNumber(Sample sample, String label) {
    String v = sample == null ? null : sample.label(label);
    if (v == null || v.isEmpty() || !Chars.isInteger(v, 0, v.length()) || v.length() > 18) {
      return Double.NaN;
    }
    double d = Double.parseDouble(v);
    return d >= 0 ? d : Double.NaN;
  }

  /** Adds {@code signal} to {@code missing} when {@code value} is NaN (or -1 for integers). */
  static void flag(Set<Signal> missing, double value, Signal signal) {
    if (Double.isNaN(value) || value == -1) {
      missing.add(signal);
    }
  }

  /**
   * The series of {@code name} whose label {@code label} is {@code value}, e.g. Triton's {@code
   * nv_trt_llm_request_metrics{request_type="active"}}.
   */
  static List<Sample> where(List<Sample> samples, String name, String label, String value) {
    List<Sample> matching = new ArrayList<>();
    for (Sample s : samples) {
      if (s.name().equals(name) && value.equals(s.label(label))) {
        matching.add(s);
      }
    }
    return matching;
  }

  /** Whether any series of {@code name} has a valid value. */
  static boolean present(List<Sample> samples, String name) {
    for (Sample s : samples) {
      if (s.name().equals(name) && valid(s.value())) {
        return true;
      }
    }
    return false;
  }

  static boolean valid(double v) {
    return v >= 0 && v != Double.POSITIVE_INFINITY;
  }
}
