package dev.pointsman.picker.flowcontrol;

import java.util.Locale;

/** Why flow control refused a request; {@link #label()} is a bounded metrics label. */
public enum DropReason {
  /** It waited longer than the queue's TTL. */
  TTL,
  /** The queue was full and nothing of a lower band could make room. */
  OVERFLOW,
  /** Its TTFT objective could not be met (passed, or no endpoint is predicted to meet it). */
  DEADLINE,
  /** It was sheddable and made room for a request of a higher band. */
  EVICTED,
  /** Its tenant's token or request budget had not enough left. */
  BUDGET;

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
