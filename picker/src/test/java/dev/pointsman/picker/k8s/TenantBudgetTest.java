package dev.pointsman.picker.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pointsman.picker.flowcontrol.Budget;
import dev.pointsman.picker.flowcontrol.TokenBudgets;
import dev.pointsman.picker.k8s.api.TenantBudget;
import dev.pointsman.picker.k8s.api.TenantBudgetSpec;
import dev.pointsman.picker.k8s.api.TenantBudgetStatus;
import dev.pointsman.testing.Await;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * TenantBudgets (fabric8's mock API server, the repository's CRD) become the budgets flow control
 * enforces, beside the file's; their status says whether they were accepted and what they have
 * left.
 */
class TenantBudgetTest {
  /** The budgets' clock stands still: nothing refills during the test. */
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);

  private final TokenBudgets budgets =
      new TokenBudgets(List.of(new Budget("from-file", null, 1_000, 0)), clock::get);

  private MockCluster cluster;
  private MockCluster.Picker picker;

  @BeforeEach
  void setUp() {
    cluster = new MockCluster();
    picker = cluster.picker(null, "picker-0", budgets);
    Await.until("ready", picker.source::ready);
    Await.until("leader", picker.source::leader);
  }

  @AfterEach
  void tearDown() {
    cluster.close();
  }

  private static TenantBudget budget(String name, TenantBudgetSpec spec) {
    TenantBudget b = new TenantBudget();
    b.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(MockCluster.NS).build());
    b.setSpec(spec);
    return b;
  }

  private TenantBudget read(String name) {
    return cluster
        .admin
        .resources(TenantBudget.class)
        .inNamespace(MockCluster.NS)
        .withName(name)
        .get();
  }

  private static Condition accepted(TenantBudget b) {
    TenantBudgetStatus s = b == null ? null : b.getStatus();
    if (s == null || s.conditions() == null) {
      return null;
    }
    return s.conditions().stream()
        .filter(c -> "Accepted".equals(c.getType()))
        .findFirst()
        .orElse(null);
  }

  @Test
  void anAcceptedBudgetIsEnforcedBesideTheFilesAndItsStatusSaysWhatIsLeft() {
    cluster
        .admin
        .resource(budget("search", new TenantBudgetSpec("team-search", null, 6_000L, 10L)))
        .create();

    Await.until("enforced", () -> budgets.remainingTokens("team-search", "m") == 6_000);
    assertThat(budgets.remainingTokens("from-file", "m")).isEqualTo(1_000);
    Await.until(
        "accepted in status",
        () -> {
          Condition c = accepted(read("search"));
          return c != null && "True".equals(c.getStatus());
        });
    assertThat(read("search").getStatus().remainingTokens()).isEqualTo(6_000L);
    assertThat(read("search").getStatus().remainingRequests()).isEqualTo(10L);

    // requests spend it; the status follows at its next refresh
    assertThat(budgets.reserve("team-search", "m", 2_500).admitted()).isTrue();
    Await.until(
        "status refreshed",
        () -> Long.valueOf(3_500).equals(read("search").getStatus().remainingTokens()));
    assertThat(read("search").getStatus().remainingRequests()).isEqualTo(9L);
    assertThat(read("search").getStatus().observedAt()).isNotBlank();

    // deleted: no longer enforced
    cluster.admin.resource(read("search")).delete();
    Await.until("gone", () -> budgets.remainingTokens("team-search", "m") == -1);
    assertThat(budgets.remainingTokens("from-file", "m")).isEqualTo(1_000);
  }

  @Test
  void anInvalidBudgetIsRefusedWithTheFieldNamedAndNotEnforced() {
    cluster
        .admin
        .resource(budget("nolimit", new TenantBudgetSpec("team-x", "m", 0L, null)))
        .create();

    Await.until(
        "refused in status",
        () -> {
          Condition c = accepted(read("nolimit"));
          return c != null && "False".equals(c.getStatus());
        });
    Condition c = accepted(read("nolimit"));
    assertThat(c.getReason()).isEqualTo("Invalid");
    assertThat(c.getMessage())
        .isEqualTo("spec.tokensPerMinute: 0, requestsPerMinute: 0 (expected at least one limit)");
    assertThat(read("nolimit").getStatus().remainingTokens()).isNull();
    assertThat(budgets.remainingTokens("team-x", "m")).isEqualTo(-1);
  }

  @Test
  void ofTwoBudgetsForOneTenantAndModelTheOlderWins() {
    cluster
        .admin
        .resource(budget("first", new TenantBudgetSpec("team-y", "m", 5_000L, null)))
        .create();
    Await.until("first enforced", () -> budgets.remainingTokens("team-y", "m") == 5_000);
    cluster
        .admin
        .resource(budget("second", new TenantBudgetSpec("team-y", "m", 9_000L, null)))
        .create();

    Await.until(
        "second conflicted",
        () -> {
          Condition c = accepted(read("second"));
          return c != null && "Conflicted".equals(c.getReason());
        });
    assertThat(accepted(read("second")).getMessage())
        .isEqualTo("fairnessId 'team-y' model 'm' already has a budget: TenantBudget 'first'");
    assertThat(budgets.remainingTokens("team-y", "m")).isEqualTo(5_000);
  }
}
