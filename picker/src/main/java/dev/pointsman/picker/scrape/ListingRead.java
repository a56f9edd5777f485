package dev.pointsman.picker.scrape;

import dev.pointsman.inference.model.DiscoveredModels;
import dev.pointsman.picker.scheduling.AdapterListing;

/**
 * A model listing as the picker uses it: the adapters it registers, or unknown when the listing
 * cannot tell adapters from base models.
 *
 * <p>Two kinds of listing carry no lineage: vLLM before its fix for issue #6274 (mid-2024) lists
 * adapters with {@code parent: null}, like more names of the base model, and SGLang before its
 * adapter-listing endpoint (PR #12229, late 2025) lists only the base. Read as they are, every
 * adapter would count as unregistered and be filtered out; so such a listing restricts nothing
 * ({@link AdapterListing#UNKNOWN}), and adapter residency comes from the engine's metrics ({@code
 * vllm:lora_requests_info}) alone. Its result, {@code no_lineage}, is counted and logged.
 *
 * @param listing the listing to use
 * @param result {@code ok} or {@code no_lineage}
 */
record ListingRead(AdapterListing listing, String result) {

  static final String NO_LINEAGE = "no_lineage";

  static ListingRead of(Engine engine, DiscoveredModels models) {
    boolean noAdapters = models.adapters().isEmpty();
    boolean parentless = noAdapters && !models.aliases().isEmpty();
    boolean baseOnly = noAdapters && engine == Engine.SGLANG;
    if (parentless || baseOnly) {
      return new ListingRead(AdapterListing.UNKNOWN, NO_LINEAGE);
    }
    return new ListingRead(AdapterListing.of(models.adapters()), "ok");
  }
}
