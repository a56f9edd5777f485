package dev.pointsman.picker.flowcontrol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TokenBudgetsTest {
  private static final long SECOND = 1_000_000_000L;

  private final AtomicLong clock = new AtomicLong(100 * SECOND);

  private TokenBudgets budgets(Budget... b) {
    return new TokenBudgets(List.of(b), clock::get);
  }

  @Test
  void aPeersBalanceLowersTheBucketsButNeverRaisesThem() {
    Budget shared = new Budget("a", null, 6_000, 10);
    TokenBudgets joiner = budgets(shared, new Budget("b", null, 1_000, 0));
    TokenBudgets peer = budgets(shared);
    for (int i = 0; i < 4; i++) {
      assertThat(peer.reserve("a", "m", 1_000).admitted()).isTrue();
    }
    assertThat(joiner.reserve("a", "m", 500).admitted()).isTrue();

    joiner.adoptLevels(peer.levels());

    // the peer's 4,000 tokens and 4 requests used count; the joiner's own 500 and 1 are below them
    assertThat(joiner.remainingTokens("a", "m")).isEqualTo(2_000);
    assertThat(joiner.remainingRequests("a", "m")).isEqualTo(6);
    assertThat(joiner.remainingTokens("b", "m")).isEqualTo(1_000);

    // a fuller peer does not give anything back
    joiner.adoptLevels(budgets(shared).levels());
    assertThat(joiner.remainingTokens("a", "m")).isEqualTo(2_000);

    // another budget for the same tenant (other limits) is not this one
    TokenBudgets other = budgets(new Budget("a", null, 6_000, 20));
    other.reserve("a", "m", 6_000);
    joiner.adoptLevels(other.levels());
    assertThat(joiner.remainingTokens("a", "m")).isEqualTo(2_000);
  }

  @Test
  void aTenantWithoutABudgetIsNotLimited() {
    TokenBudgets t = budgets(new Budget("a", null, 100, 0));

    assertThat(t.reserve("b", "m", 1_000_000).admitted()).isTrue();
    assertThat(t.reserve("b", "m", 1_000_000).reservation())
        .isSameAs(TokenBudgets.Reservation.NONE);
  }

  @Test
  void reservationsSpendTheMinutesTokensThenRefuseWithWhenToRetry() {
    TokenBudgets t = budgets(new Budget("a", null, 6_000, 0));
    assertThat(t.reserve("a", "m", 4_000).admitted()).isTrue();

    TokenBudgets.Admission refused = t.reserve("a", "m", 3_000);

    assertThat(refused.admitted()).isFalse();
    // 1,000 missing at 100 tokens per second
    assertThat(refused.refusal().retryAfterSeconds()).isEqualTo(10);
    assertThat(refused.refusal().limitTokens()).isEqualTo(6_000);
    assertThat(refused.refusal().remainingTokens()).isEqualTo(2_000);
    assertThat(refused.refusal().limitRequests()).isEqualTo(-1);

    clock.addAndGet(10 * SECOND);
    assertThat(t.reserve("a", "m", 3_000).admitted()).isTrue();
  }

  @Test
  void settlingChargesWhatTheUsageSaysInsteadOfTheEstimate() {
    TokenBudgets t = budgets(new Budget("a", null, 10_000, 0));
    TokenBudgets.Reservation small = t.reserve("a", "m", 4_000).reservation();
    TokenBudgets.Reservation large = t.reserve("a", "m", 4_000).reservation();

    t.settle(small, 1_000); // gives 3,000 back
    t.settle(large, 7_000); // takes 3,000 more
    t.settle(large, 0); // once only

    assertThat(t.remainingTokens("a", "m")).isEqualTo(2_000);
  }

  @Test
  void withoutUsageTheEstimateStays() {
    TokenBudgets t = budgets(new Budget("a", null, 10_000, 0));
    TokenBudgets.Reservation r = t.reserve("a", "m", 4_000).reservation();

    t.settle(r, -1);

    assertThat(t.remainingTokens("a", "m")).isEqualTo(6_000);
  }

  @Test
  void aRequestThatNeverReachedAServerIsGivenBackWhole() {
    TokenBudgets t = budgets(new Budget("a", null, 10_000, 2));
    TokenBudgets.Reservation r = t.reserve("a", "m", 4_000).reservation();
    t.reserve("a", "m", 1);

    t.release(r);
    t.release(r);

    assertThat(t.remainingTokens("a", "m")).isEqualTo(9_999);
    assertThat(t.reserve("a", "m", 1).admitted()).as("one request left").isTrue();
    assertThat(t.reserve("a", "m", 1).admitted()).isFalse();
  }

  @Test
  void requestsPerMinuteAreLimitedToo() {
    TokenBudgets t = budgets(new Budget("a", null, 0, 60));
    for (int i = 0; i < 60; i++) {
      assertThat(t.reserve("a", "m", 1_000_000).admitted()).isTrue();
    }

    TokenBudgets.Admission refused = t.reserve("a", "m", 1);

    assertThat(refused.refusal().retryAfterSeconds()).isEqualTo(1);
    assertThat(refused.refusal().remainingRequests()).isZero();
    assertThat(refused.refusal().limitTokens()).isEqualTo(-1);
  }

  @Test
  void aBudgetForTheModelWinsOverTheTenantsBudget() {
    TokenBudgets t = budgets(new Budget("a", null, 1_000, 0), new Budget("a", "big", 100, 0));

    assertThat(t.reserve("a", "big", 80).admitted()).isTrue();
    assertThat(t.reserve("a", "big", 50).admitted()).isFalse();
    assertThat(t.reserve("a", "small", 500).admitted()).isTrue();
  }

  @Test
  void aRequestLargerThanAMinutesWorthGoesWhenTheBudgetIsFull() {
    TokenBudgets t = budgets(new Budget("a", null, 1_000, 0));

    assertThat(t.reserve("a", "m", 5_000).admitted()).isTrue();
    assertThat(t.reserve("a", "m", 1).refusal().retryAfterSeconds())
        .as("4,001 tokens of debt at 1,000 a minute")
        .isEqualTo(241);
  }

  @Test
  void aTenantAndModelHaveOneBudget() {
    assertThatThrownBy(() -> budgets(new Budget("a", "m", 1, 0), new Budget("a", "m", 2, 0)))
        .hasMessageContaining("fairnessId 'a' model 'm' (already has a budget)");
    assertThatThrownBy(() -> new Budget("a", null, 0, 0))
        .hasMessageContaining("expected at least one limit");
    assertThatThrownBy(() -> new Budget("a", null, -1, 0))
        .hasMessageContaining("tokensPerMinute: -1 (expected >= 0, 0 for no limit)");
  }

  @Test
  void aPeersUseSinceItsFirstReportComesOffTheBucket() {
    TokenBudgets t = budgets(new Budget("a", null, 6_000, 10));
    t.foldPeer("r1", List.of(new BudgetUse("a", null, 50_000, 40))); // baseline: not charged
    assertThat(t.remainingTokens("a", "m")).isEqualTo(6_000);

    t.foldPeer("r1", List.of(new BudgetUse("a", null, 54_000, 43)));

    assertThat(t.remainingTokens("a", "m")).isEqualTo(2_000);
    assertThat(t.remainingRequests("a", "m")).isEqualTo(7);
    assertThat(t.reserve("a", "m", 3_000).admitted()).isFalse();
    assertThat(t.peerTokens()).isEqualTo(4_000);
    assertThat(t.peerRequests()).isEqualTo(3);
  }

  @Test
  void whatAPeerGivesBackIsGivenBackHereUpToAFullBucket() {
    TokenBudgets t = budgets(new Budget("a", null, 6_000, 0));
    t.foldPeer("r1", List.of(new BudgetUse("a", null, 0, 0)));
    t.foldPeer("r1", List.of(new BudgetUse("a", null, 5_000, 1)));

    t.foldPeer("r1", List.of(new BudgetUse("a", null, -2_000, 1))); // settled far below

    assertThat(t.remainingTokens("a", "m")).isEqualTo(6_000);
  }

  @Test
  void ownUseIsNetOfSettlementsAndReleasesAndExcludesPeers() {
    TokenBudgets t = budgets(new Budget("a", "m", 6_000, 0));
    TokenBudgets.Reservation r1 = t.reserve("a", "m", 1_000).reservation();
    TokenBudgets.Reservation r2 = t.reserve("a", "m", 500).reservation();
    t.settle(r1, 700);
    t.release(r2);
    t.foldPeer("r1", List.of(new BudgetUse("a", "m", 0, 0)));
    t.foldPeer("r1", List.of(new BudgetUse("a", "m", 900, 2)));

    assertThat(t.ownUse()).containsExactly(new BudgetUse("a", "m", 700, 1));
  }

  @Test
  void aPeerThatLeftStartsFromANewBaselineAndUnknownBudgetsAreIgnored() {
    TokenBudgets t = budgets(new Budget("a", null, 6_000, 0));
    t.foldPeer("r1", List.of(new BudgetUse("a", null, 100, 1), new BudgetUse("z", null, 9, 9)));
    assertThat(t.peers()).isEqualTo(1);

    t.retainPeers(List.of("r0"));
    t.foldPeer("r1", List.of(new BudgetUse("a", null, 5_000, 5)));

    assertThat(t.remainingTokens("a", "m")).isEqualTo(6_000);
    assertThat(t.peers()).isEqualTo(1);
  }
}
