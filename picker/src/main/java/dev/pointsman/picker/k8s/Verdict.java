package dev.pointsman.picker.k8s;

import java.util.Objects;

/**
 * What the picker made of one generation of a ModelRoute or PickerPolicy; written to its status as
 * the {@code Accepted} condition by the replica holding the Lease.
 *
 * @param generation the {@code metadata.generation} judged
 * @param accepted whether the spec is in use
 * @param reason {@code Accepted}, {@code Invalid} or {@code Conflicted}
 * @param message for people: the bad field and what was expected, or what is in force
 */
record Verdict(long generation, boolean accepted, String reason, String message) {
  static final String ACCEPTED = "Accepted";
  static final String INVALID = "Invalid";
  static final String CONFLICTED = "Conflicted";

  Verdict {
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
  }

  static Verdict accepted(long generation, String message) {
    return new Verdict(generation, true, ACCEPTED, message);
  }

  static Verdict invalid(long generation, String message) {
    return new Verdict(generation, false, INVALID, message);
  }

  static Verdict conflicted(long generation, String message) {
    return new Verdict(generation, false, CONFLICTED, message);
  }
}
