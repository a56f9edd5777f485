package dev.pointsman.picker.replication;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.replication.MergeSides.Fetch;
import java.util.List;
import org.jgroups.Address;
import org.jgroups.MergeView;
import org.jgroups.View;
import org.jgroups.ViewId;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.Test;

/** Which side a replica fetches from after a partition heals, from the views JGroups reports. */
class MergeSidesTest {
  private final Address a = new UUID(0, 1);
  private final Address b = new UUID(0, 2);
  private final Address c = new UUID(0, 3);
  private final Address d = new UUID(0, 4);

  private static MergeView merge(Address coord, List<Address> members, View... subgroups) {
    return new MergeView(new ViewId(coord, 9), members, List.of(subgroups));
  }

  @Test
  void disjointSidesFetchFromEachOtherOneAtOnce() {
    View ab = View.create(a, 3, a, b);
    View cAlone = View.create(c, 3, c);
    MergeView m = merge(a, List.of(a, b, c), ab, cAlone);

    assertThat(MergeSides.fetches(m, ab, a)).containsExactly(new Fetch(c, true));
    assertThat(MergeSides.fetches(m, ab, b)).containsExactly(new Fetch(c, true));
    // c's side sorts after a's: it waits for a's transfer from it to finish
    assertThat(MergeSides.fetches(m, cAlone, c)).containsExactly(new Fetch(a, false));
  }

  @Test
  void overlappingSubgroupsStillFetchFromTheSideThatWasCutOff() {
    // as a CI run reported them: c had been alone, yet its subgroup is the old whole view
    View ab = View.create(a, 3, a, b);
    View stale = View.create(a, 2, a, c, b);
    MergeView m = merge(a, List.of(a, b, c), ab, stale);

    assertThat(MergeSides.fetches(m, ab, a)).containsExactly(new Fetch(c, true));
    assertThat(MergeSides.fetches(m, ab, b)).containsExactly(new Fetch(c, true));
    assertThat(MergeSides.fetches(m, View.create(c, 3, c), c)).containsExactly(new Fetch(a, false));
  }

  @Test
  void threeSidesGiveTwoFetchesAndEachPairAgreesWhoGoesFirst() {
    View aAlone = View.create(a, 3, a);
    View bc = View.create(b, 3, b, c);
    View dAlone = View.create(d, 3, d);
    MergeView m = merge(a, List.of(a, b, c, d), aAlone, bc, dAlone);

    assertThat(MergeSides.fetches(m, aAlone, a))
        .containsExactly(new Fetch(b, true), new Fetch(d, true));
    assertThat(MergeSides.fetches(m, bc, c))
        .containsExactly(new Fetch(a, false), new Fetch(d, true));
    assertThat(MergeSides.fetches(m, dAlone, d))
        .containsExactly(new Fetch(a, false), new Fetch(b, false));
  }

  @Test
  void aReplicaThatNeverLeftTheWholeViewFetchesNothing() {
    View all = View.create(a, 2, a, b, c);
    MergeView m = merge(a, List.of(a, b, c), View.create(a, 3, a, b), View.create(c, 3, c));

    assertThat(MergeSides.fetches(m, all, b)).isEmpty();
  }

  @Test
  void withoutAPriorViewItsOwnSubgroupIsItsSide() {
    MergeView m = merge(a, List.of(a, b, c), View.create(a, 3, a, b), View.create(c, 3, c));

    assertThat(MergeSides.fetches(m, null, b)).containsExactly(new Fetch(c, true));
  }

  @Test
  void aMemberNoSubgroupNamesIsFetchedFromOnItsOwn() {
    MergeView m = merge(a, List.of(a, b, c), View.create(a, 3, a, b));

    assertThat(MergeSides.fetches(m, View.create(a, 3, a, b), a))
        .containsExactly(new Fetch(c, true));
  }
}
