package dev.pointsman.picker.replication;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.flowcontrol.Budget;
import dev.pointsman.picker.flowcontrol.BudgetLevel;
import dev.pointsman.picker.flowcontrol.TokenBudgets;
import dev.pointsman.picker.scheduling.InFlightTracker;
import dev.pointsman.picker.scheduling.Scheduler;
import dev.pointsman.picker.scheduling.prefix.PrefixHasher;
import dev.pointsman.picker.scheduling.prefix.PrefixIndex;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Absorbing a snapshot merges: prefix blocks and adapters are a union, and of two fits of one
 * endpoint the one trained on more observations is kept, so two replicas that exchange snapshots (a
 * healed partition) end with the same models.
 */
class SnapshotMergeTest {
  private static final String X = "10.0.0.1:8000";

  private static Scheduler scheduler() {
    return new Scheduler(
        new PrefixIndex(1_000), new InFlightTracker(), PrefixHasher.DEFAULT, () -> 0L);
  }

  private static Snapshot roundTrip(Scheduler s) throws Exception {
    return roundTrip(s, TokenBudgets.none());
  }

  private static Snapshot roundTrip(Scheduler s, TokenBudgets budgets) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Snapshot.of(s, budgets).writeTo(out);
    return Snapshot.readFrom(new ByteArrayInputStream(out.toByteArray()));
  }

  @Test
  void prefixKeysOfAnIndexKeptByCheckpointsGoOnlyToOneThatKeepsTheSame() throws Exception {
    PrefixIndex.Checkpoints picker = new PrefixIndex.Checkpoints(256, 16);
    long[] prompt = new java.util.SplittableRandom(5).longs(1_000).toArray();
    Scheduler seasoned = Cluster.scheduler(picker);
    seasoned.learnPick(X, prompt, null, 0);
    Snapshot snapshot = roundTrip(seasoned);
    assertThat(snapshot.prefixKeys()).isEqualTo(picker);
    assertThat(snapshot.prefix().get(X)).hasSize(picker.kept(1_000));

    Scheduler late = Cluster.scheduler(new PrefixIndex.Checkpoints(256, 16));
    snapshot.absorbInto(late);
    assertThat(late.prefixIndex().size(X)).isEqualTo(1_000);
    assertThat(late.prefixIndex().match(prompt, List.of(X))).containsExactly(1_000);

    Scheduler other = Cluster.scheduler(new PrefixIndex.Checkpoints(128, 16));
    snapshot.absorbInto(other);
    assertThat(other.prefixIndex().size(X)).as("keys it would misread").isZero();

    Scheduler everyBlock = scheduler(); // writes its keys as every release has
    everyBlock.learnPick(X, prompt, null, 0);
    Snapshot plain = roundTrip(everyBlock);
    assertThat(plain.prefixKeys()).isEqualTo(PrefixIndex.Checkpoints.EVERY_BLOCK);
    plain.absorbInto(late);
    assertThat(late.prefixIndex().size(X))
        .as("nor an index that keeps every block")
        .isEqualTo(1_000);
    Scheduler alike = scheduler();
    plain.absorbInto(alike);
    assertThat(alike.prefixIndex().match(prompt, List.of(X))).containsExactly(1_000);
  }

  @Test
  void budgetBalancesTravelAndEachSideKeepsTheLowerOne() throws Exception {
    AtomicLong clock = new AtomicLong(1_000_000_000L);
    Budget perModel = new Budget("team-a", "llama", 10_000, 0);
    Budget tenantWide = new Budget("team-b", null, 0, 50);
    TokenBudgets left = new TokenBudgets(List.of(perModel, tenantWide), clock::get);
    TokenBudgets right = new TokenBudgets(List.of(perModel, tenantWide), clock::get);
    left.reserve("team-a", "llama", 7_000);
    for (int i = 0; i < 30; i++) {
      right.reserve("team-b", "any", 1);
    }

    Snapshot fromLeft = roundTrip(scheduler(), left);
    Snapshot fromRight = roundTrip(scheduler(), right);
    assertThat(fromLeft.budgets())
        .extracting(BudgetLevel::budget)
        .containsExactlyInAnyOrder(perModel, tenantWide);
    fromRight.absorbInto(scheduler(), left);
    fromLeft.absorbInto(scheduler(), right);

    for (TokenBudgets b : List.of(left, right)) {
      assertThat(b.remainingTokens("team-a", "llama")).isEqualTo(3_000);
      assertThat(b.remainingRequests("team-b", "any")).isEqualTo(20);
    }
  }

  @Test
  void twoSidesThatExchangeSnapshotsEndWithTheSameKnowledge() throws Exception {
    Scheduler left = scheduler();
    Scheduler right = scheduler();
    left.learnPick(X, new long[] {1, 2, 3}, "sql", 100);
    right.learnPick(X, new long[] {7, 8}, "chat", 50);
    for (int i = 0; i < 5; i++) {
      left.learnTpot(X, 0.01, 0.02);
    }
    right.learnTpot(X, 0.01, 0.05);
    double[] leftFit = left.tpotModel().coefficients(X);

    Snapshot fromLeft = roundTrip(left);
    Snapshot fromRight = roundTrip(right);
    fromRight.absorbInto(left);
    fromLeft.absorbInto(right);

    for (Scheduler s : List.of(left, right)) {
      assertThat(s.prefixIndex().match(new long[] {1, 2, 3}, List.of(X))).containsExactly(3);
      assertThat(s.prefixIndex().match(new long[] {7, 8}, List.of(X))).containsExactly(2);
      assertThat(s.adapterHistory().mostRecent(X, 16)).containsExactlyInAnyOrder("sql", "chat");
      assertThat(s.tpotModel().observations(X)).isEqualTo(5); // the better-trained fit wins
      assertThat(s.tpotModel().coefficients(X)).containsExactly(leftFit);
    }
  }

  @Test
  void aLateReplicaTakesTheMeanAnswerLengthFromTheSnapshotAndABetterInformedOneKeepsItsOwn()
      throws Exception {
    Scheduler seasoned = scheduler();
    for (int i = 0; i < 40; i++) {
      seasoned.observeAnswer(1_000);
    }
    Scheduler late = scheduler();
    assertThat(late.meanAnswerTokens()).isNaN();

    roundTrip(seasoned).absorbInto(late);
    assertThat(late.meanAnswerTokens()).isEqualTo(1_000.0);

    Scheduler fresh = scheduler();
    for (int i = 0; i < 25; i++) {
      fresh.observeAnswer(100);
    }
    roundTrip(fresh).absorbInto(seasoned); // it has seen fewer answers than the receiver
    assertThat(seasoned.meanAnswerTokens()).isEqualTo(1_000.0);
  }
}
