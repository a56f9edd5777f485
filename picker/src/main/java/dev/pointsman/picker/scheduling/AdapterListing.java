package dev.pointsman.picker.scheduling;

import java.util.Objects;
import java.util.Set;

/**
 * The LoRA adapters an endpoint's {@code /v1/models} lists: the ones registered there (started with
 * {@code --lora-modules} or added through {@code /v1/load_lora_adapter}). A model server answers a
 * request for an adapter it does not list with 404, whatever its GPU slots hold; a listed adapter
 * may still need loading into a slot, which {@link LoraState} prices.
 *
 * @param adapters the adapters listed (entries whose {@code parent} is the base model)
 * @param known false when the endpoint has not been listed yet, its listing expired, or it does not
 *     serve {@code /v1/models}; an unknown listing allows every adapter
 */
public record AdapterListing(Set<String> adapters, boolean known) {

  /** No listing: every adapter is assumed servable. */
  public static final AdapterListing UNKNOWN = new AdapterListing(Set.of(), false);

  public AdapterListing {
    adapters = Set.copyOf(Objects.requireNonNull(adapters, "adapters"));
    if (!known && !adapters.isEmpty()) {
      throw new IllegalArgumentException("an unknown listing lists no adapters");
    }
  }

  /** A listing read from the endpoint. */
  public static AdapterListing of(Set<String> adapters) {
    return new AdapterListing(adapters, true);
  }

  /** Whether a request for {@code adapter} can be served here as far as the listing tells. */
  public boolean allows(String adapter) {
    return !known || adapters.contains(adapter);
  }
}
