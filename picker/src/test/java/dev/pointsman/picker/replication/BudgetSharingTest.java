package dev.pointsman.picker.replication;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.flowcontrol.Budget;
import dev.pointsman.picker.flowcontrol.TokenBudgets;
import dev.pointsman.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Tenant budgets enforced across two real picker replicas (JGroups over TCP on 127.0.0.1): each
 * reserves locally and folds in the other's reported use, so a tenant whose requests are split
 * between them is admitted about one budget in all, not one per replica.
 */
class BudgetSharingTest {
  private static final Duration VIEW_CHANGE = Duration.ofSeconds(60);
  private static final int BUDGET = 40;

  /** Requests each replica admits per round before the two exchange their use. */
  private static final int ROUND = 3;

  /** The budgets' clock stands still: nothing refills during the test. */
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);

  private Cluster cluster;

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private void await(String what, BooleanSupplier condition) {
    Await.until(what, VIEW_CHANGE, condition, cluster::describe);
  }

  private TokenBudgets budgets() {
    return new TokenBudgets(List.of(new Budget("team-a", null, 0, BUDGET)), clock::get);
  }

  @Test
  void twoReplicasAdmitOneBudgetInAllWithinOneRoundOfPropagation() {
    cluster = new Cluster(2);
    TokenBudgets b0 = budgets();
    TokenBudgets b1 = budgets();
    Cluster.Replica r0 = cluster.start(0, b0);
    Cluster.Replica r1 = cluster.start(1, b1);
    await("both joined", () -> r0.members() == 2 && r1.members() == 2);
    await("each has the other's baseline", () -> b0.peers() == 1 && b1.peers() == 1);
    await(
        "budgets shared", () -> r0.replicator().budgetsShared() && r1.replicator().budgetsShared());

    int admitted = 0;
    int refusedRounds = 0;
    for (int round = 0; round < 100 && refusedRounds < 2; round++) {
      int before = admitted;
      for (TokenBudgets b : List.of(b0, b1)) {
        for (int k = 0; k < ROUND; k++) {
          if (b.reserve("team-a", "m", 10).admitted()) {
            admitted++;
          }
        }
      }
      refusedRounds = admitted == before ? refusedRounds + 1 : 0;
      long total = admitted;
      // both see the whole cluster's use before the next round (the propagation bound's round)
      await(
          "both count " + total + " requests",
          () ->
              b0.remainingRequests("team-a", "m") == Math.max(0, BUDGET - total)
                  && b1.remainingRequests("team-a", "m") == Math.max(0, BUDGET - total));
    }

    // alone each would admit a whole budget (2 x 40); shared, at most the requests the other
    // replica admitted in the last round before it saw this one's
    assertThat(admitted).isBetween(BUDGET, BUDGET + ROUND);
    assertThat(b0.peerRequests() + b1.peerRequests()).isEqualTo(admitted);

    // r1 leaves: r0 falls back to its own admissions, counted and visible
    r1.replicator().close();
    await("r0 alone", () -> r0.members() == 1);
    await("r0's fallback counted", () -> r0.replicator().stats().budgetsLocal() == 1);
    assertThat(r0.replicator().budgetsShared()).isFalse();
  }

  @Test
  void aReplicaThatJoinsLateStartsFromTheClustersBalance() {
    cluster = new Cluster(2);
    TokenBudgets b0 = budgets();
    Cluster.Replica r0 = cluster.start(0, b0);
    await("r0 connected", () -> r0.members() == 1);
    int early = 30;
    for (int k = 0; k < early; k++) {
      assertThat(b0.reserve("team-a", "m", 10).admitted()).isTrue();
    }

    TokenBudgets b1 = budgets();
    Cluster.Replica r1 = cluster.start(1, b1);
    await("r1 joined and settled", () -> r1.members() == 2 && r1.replicator().settled());

    // r0's use before r1 existed reaches r1's buckets through a snapshot (its join's, or, when a
    // loaded machine lets each start a cluster of its own first, the merge's): r0's first report
    // is only a baseline, so without the snapshot's balance r1 would keep a whole budget
    await(
        "r1 holds the cluster's balance",
        () -> b1.remainingRequests("team-a", "m") == BUDGET - early);
    int admitted = 0;
    for (int k = 0; k < BUDGET; k++) {
      if (b1.reserve("team-a", "m", 10).admitted()) {
        admitted++;
      }
    }
    assertThat(admitted).isEqualTo(BUDGET - early);
  }

  @Test
  void aReplicaAloneEnforcesItsOwnAdmissionsAndSaysSo() {
    cluster = new Cluster(2);
    TokenBudgets b0 = budgets();
    Cluster.Replica r0 = cluster.start(0, b0);
    await("r0 connected", () -> r0.members() == 1);

    int admitted = 0;
    for (int k = 0; k < 2 * BUDGET; k++) {
      if (b0.reserve("team-a", "m", 10).admitted()) {
        admitted++;
      }
    }

    assertThat(admitted).isEqualTo(BUDGET);
    assertThat(r0.replicator().budgetsShared()).isFalse();
  }
}
