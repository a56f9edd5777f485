package dev.pointsman.picker.datastore;

import dev.pointsman.picker.scrape.ScrapeTarget;
import java.util.List;
import java.util.Set;

/**
 * Every endpoint of every pool, as published to {@link MembershipListener}s.
 *
 * @param targets one scrape target per distinct address
 * @param addresses the distinct addresses
 */
public record Membership(List<ScrapeTarget> targets, Set<String> addresses) {
  public Membership {
    targets = List.copyOf(targets);
    addresses = Set.copyOf(addresses);
  }
}
