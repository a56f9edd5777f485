package dev.pointsman.picker.datastore;

/**
 * Told when an endpoint's engine lost its caches while it stayed in the pool: its counters went
 * backwards (a new process behind the address, {@code restart}), or it woke from sleep ({@code
 * wake}: vLLM's sleep mode frees the KV cache). An endpoint that leaves the pool is forgotten
 * through the {@link MembershipListener} instead.
 */
@FunctionalInterface
public interface CacheLossListener {
  void cacheLost(String address, String reason);
}
