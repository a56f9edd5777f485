package dev.pointsman.picker.telemetry;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * Meters of one name, registered once per combination of one or two label values and held: a
 * per-request event finds its meter with two map reads instead of building a meter id and looking
 * it up in the registry. Only for labels whose values come from bounded sets (pools, models served,
 * fixed reasons).
 */
final class HeldMeters<M> {
  private final ConcurrentHashMap<String, ConcurrentHashMap<String, M>> held =
      new ConcurrentHashMap<>();
  private final BiFunction<String, String, M> register;

  /**
   * @param register registers the meter for a first and second label value
   */
  HeldMeters(BiFunction<String, String, M> register) {
    this.register = register;
  }

  /** The meter of a meter kind with one label. */
  M get(String first) {
    return get(first, "");
  }

  M get(String first, String second) {
    ConcurrentHashMap<String, M> inner = held.get(first);
    if (inner == null) {
      inner = held.computeIfAbsent(first, k -> new ConcurrentHashMap<>());
    }
    M meter = inner.get(second);
    return meter != null ? meter : inner.computeIfAbsent(second, s -> register.apply(first, s));
  }
}
