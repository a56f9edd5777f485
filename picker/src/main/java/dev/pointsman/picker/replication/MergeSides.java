package dev.pointsman.picker.replication;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jgroups.Address;
import org.jgroups.MergeView;
import org.jgroups.View;

/**
 * Which snapshots a replica fetches when a partition heals: one from each side it was cut off from.
 * Its own side is the view it held before the merge (it was hearing those members' updates all
 * along); the others are the merge view's new members, grouped by the subgroups they came from. The
 * subgroups alone cannot say which side a replica was on: JGroups may report them overlapping (a CI
 * run saw {@code [a, b]} and {@code [a, c, b]}, where c had been alone), and a replica that skipped
 * every subgroup holding itself fetched nothing.
 */
final class MergeSides {
  private MergeSides() {}

  /**
   * A snapshot to fetch from {@code from}; {@code now} false: after the state timeout, so that of
   * two sides fetching from each other, only one holds its barrier closed at a time.
   */
  record Fetch(Address from, boolean now) {}

  /**
   * @param before the view this replica held just before {@code merge}; null: none (it fetches from
   *     every side but its own subgroup's)
   * @return one fetch per side this replica was not on, in the merge view's subgroup order
   */
  static List<Fetch> fetches(MergeView merge, View before, Address me) {
    Set<Address> mine = new HashSet<>();
    if (before != null) {
      mine.addAll(before.getMembers());
    } else {
      for (View side : merge.getSubgroups()) {
        if (side.containsMember(me)) {
          mine.addAll(side.getMembers());
          break;
        }
      }
    }
    mine.add(me);
    Set<Address> covered = new HashSet<>(mine);
    List<Fetch> out = new ArrayList<>();
    List<Collection<Address>> sides = new ArrayList<>();
    merge.getSubgroups().forEach(v -> sides.add(v.getMembers()));
    merge.getMembers().forEach(m -> sides.add(List.of(m))); // any member no subgroup named
    for (Collection<Address> side : sides) {
      List<Address> fresh = side.stream().filter(m -> !covered.contains(m)).toList();
      if (fresh.isEmpty()) {
        continue;
      }
      covered.addAll(fresh);
      Address from = min(fresh);
      // both sides compare the same two addresses, so exactly one of them fetches at once
      out.add(new Fetch(from, min(mine).compareTo(from) < 0));
    }
    return out;
  }

  private static Address min(Collection<Address> members) {
    Address m = null;
    for (Address a : members) {
      if (m == null || a.compareTo(m) < 0) {
        m = a;
      }
    }
    return m;
  }
}
