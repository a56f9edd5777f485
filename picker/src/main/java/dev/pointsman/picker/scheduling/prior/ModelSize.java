package dev.pointsman.picker.scheduling.prior;

import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A model's parameter count, as an operator can state it or its name hints it: {@code 8b}, {@code
 * 70B}, {@code 0.5b}, {@code 8x7b} (a mixture of experts: every expert's weights are read), or a
 * plain count ({@code 8030000000}).
 */
public final class ModelSize {
  /** Assumed when nothing states or hints a size: a model that fits one data-centre GPU. */
  public static final double ASSUMED_BILLIONS = 8;

  private static final Pattern IN_NAME =
      Pattern.compile(
          "(?i)(?:^|[^a-z0-9.])(?:(\\d{1,3})x)?(\\d{1,4}(?:\\.\\d{1,3})?)b(?![a-z0-9])");

  private static final Pattern PLAIN_COUNT = Pattern.compile("\\d{7,13}");

  private static final Pattern STATED = Pattern.compile("(?i)(\\d{1,3}x)?\\d{1,4}(\\.\\d{1,3})?b");

  private ModelSize() {}

  /**
   * Billions of parameters an operator stated ({@code 70b}, {@code 70B}, {@code 8030000000}), or
   * empty when {@code value} is null or says no size.
   */
  public static OptionalDouble parse(String value) {
    if (value == null) {
      return OptionalDouble.empty();
    }
    String v = value.trim();
    if (PLAIN_COUNT.matcher(v).matches()) {
      return OptionalDouble.of(Long.parseLong(v) / 1e9);
    }
    return v.matches("(?i)(\\d{1,3}x)?\\d{1,4}(\\.\\d{1,3})?b")
        ? fromName(v)
        : OptionalDouble.empty();
  }

  /**
   * Billions of parameters a model name hints ({@code meta-llama/Llama-3.1-70B-Instruct} → 70), or
   * empty when it hints none.
   */
  public static OptionalDouble fromName(String model) {
    if (model == null) {
      return OptionalDouble.empty();
    }
    Matcher m = IN_NAME.matcher(model);
    double found = Double.NaN;
    while (m.find()) {
      double experts = m.group(1) == null ? 1 : Integer.parseInt(m.group(1));
      found = experts * Double.parseDouble(m.group(2));
    }
    return found > 0 ? OptionalDouble.of(found) : OptionalDouble.empty();
  }
}
