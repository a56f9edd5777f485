package dev.pointsman.picker.datastore;

/**
 * Told about every membership change, in order, after the datastore applied it. The application
 * wires the scraper ({@code m -> scraper.setTargets(m.targets())}) and the prefix index ({@code m
 * -> prefixIndex.retain(m.addresses())}) here.
 */
@FunctionalInterface
public interface MembershipListener {
  void membershipChanged(Membership membership);
}
