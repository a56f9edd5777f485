package dev.pointsman.picker.routing;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Inference objectives named by the {@code x-gateway-inference-objective} header. An objective with
 * a negative priority is sheddable: under saturation its requests get 429 rather than queue (with
 * flow control on, they queue in the lowest bands and are evicted first). Unknown or absent
 * objectives are critical (never shed), at priority 0.
 */
public final class Objectives {
  private final Map<String, Objective> byName;

  public Objectives(List<Objective> objectives) {
    this.byName =
        objectives.stream()
            .collect(Collectors.toUnmodifiableMap(Objective::name, Function.identity()));
  }

  public static Objectives none() {
    return new Objectives(List.of());
  }

  /** Whether requests naming {@code objective} may be shed. */
  public boolean sheddable(String objective) {
    if (objective == null) {
      return false;
    }
    Objective o = byName.get(objective);
    return o != null && o.priority() < 0;
  }

  /**
   * The priority of requests naming {@code objective}: its configured priority; 0 when it is absent
   * or unknown.
   */
  public int priority(String objective) {
    if (objective == null) {
      return 0;
    }
    Objective o = byName.get(objective);
    return o == null ? 0 : o.priority();
  }

  /**
   * One objective.
   *
   * @param name the header value that names it
   * @param priority higher is more important; negative means sheddable
   */
  public record Objective(String name, int priority) {
    public Objective {
      Objects.requireNonNull(name, "name");
      if (name.isBlank()) {
        throw new IllegalArgumentException("objectives[].name: '' (expected a non-empty name)");
      }
    }
  }
}
