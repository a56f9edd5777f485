package dev.pointsman.picker.flowcontrol;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Per-tenant token and request budgets per minute: a request reserves its estimated tokens (prompt
 * plus output) and one request at admission, or is refused with how long to wait; it settles at the
 * end with the tokens its response's usage reports (the reservation is kept when none is reported),
 * or is given back whole when it never reached a model server. Tenants without a budget are not
 * limited. Alone, a replica enforces what it admitted itself; with peers, each publishes its own
 * use ({@link #ownUse}) and folds theirs in ({@link #foldPeer}), so every replica's buckets hold
 * the cluster's balance, a batch interval late. Thread-safe (one lock); the clock is injected.
 */
public final class TokenBudgets {
  private final Map<String, Allowance> byKey = new HashMap<>();
  private final List<Budget> configured;

  /** Each peer's last reported use, by budget key: what its next report is counted from. */
  private final Map<String, Map<String, long[]>> peerUse = new HashMap<>();

  private long peerTokens;
  private long peerRequests;

  private final LongSupplier nanos;

  public TokenBudgets(List<Budget> budgets, LongSupplier nanos) {
    this.nanos = Objects.requireNonNull(nanos, "nanos");
    this.configured = List.copyOf(budgets);
    long now = nanos.getAsLong();
    for (Budget b : budgets) {
      String key = key(b.tenant(), b.model());
      if (byKey.putIfAbsent(key, new Allowance(b, now)) != null) {
        throw new IllegalArgumentException(
            "budgets: fairnessId '"
                + b.tenant()
                + "' model "
                + (b.model() == null ? "(all)" : "'" + b.model() + "'")
                + " (already has a budget)");
      }
    }
  }

  public static TokenBudgets none() {
    return new TokenBudgets(List.of(), () -> 0L);
  }

  public synchronized boolean isEmpty() {
    return byKey.isEmpty();
  }

  private static String key(String tenant, String model) {
    return tenant + "\u0000" + (model == null ? "" : model);
  }

  /** What admission decided. {@code reservation} is null when refused. */
  public record Admission(Reservation reservation, Refusal refusal) {
    public boolean admitted() {
      return refusal == null;
    }
  }

  /**
   * A refusal: retry after {@code retryAfterSeconds}; the budget's limits and what is left of them
   * (-1 for a limit not set).
   */
  public record Refusal(
      long retryAfterSeconds,
      long limitTokens,
      long remainingTokens,
      long limitRequests,
      long remainingRequests) {}

  /** Tokens and a request held for one admitted request; settle or release it exactly once. */
  public static final class Reservation {
    /** For tenants without a budget: nothing held. */
    public static final Reservation NONE = new Reservation(null, 0);

    private final Allowance allowance;
    private final long tokens;
    private boolean done;

    Reservation(Allowance allowance, long tokens) {
      this.allowance = allowance;
      this.tokens = tokens;
    }
  }

  /**
   * Reserves {@code estimate} tokens and one request of {@code tenant}'s budget for {@code model}.
   */
  public synchronized Admission reserve(String tenant, String model, long estimate) {
    Allowance a = allowance(tenant, model);
    if (a == null) {
      return new Admission(Reservation.NONE, null);
    }
    a.refill(nanos.getAsLong());
    long wait = a.waitSeconds(estimate);
    if (wait > 0) {
      Budget b = a.budget();
      return new Admission(
          null,
          new Refusal(
              wait,
              b.tokensPerMinute() > 0 ? b.tokensPerMinute() : -1,
              a.remainingTokens(),
              b.requestsPerMinute() > 0 ? b.requestsPerMinute() : -1,
              a.remainingRequests()));
    }
    a.take(estimate);
    return new Admission(new Reservation(a, estimate), null);
  }

  /** The request was served: charges the tokens used instead of the estimate (-1: keep it). */
  public synchronized void settle(Reservation r, long usedTokens) {
    if (r.allowance == null || r.done) {
      return;
    }
    r.done = true;
    if (usedTokens >= 0) {
      r.allowance.refill(nanos.getAsLong());
      r.allowance.giveTokens(r.tokens - usedTokens);
    }
  }

  /** The request never reached a model server: gives back its tokens and its request. */
  public synchronized void release(Reservation r) {
    if (r.allowance == null || r.done) {
      return;
    }
    r.done = true;
    r.allowance.refill(nanos.getAsLong());
    r.allowance.giveTokens(r.tokens);
    r.allowance.giveRequest();
  }

  /** Tokens left in {@code tenant}'s budget for {@code model} now, or -1 without a token limit. */
  public synchronized long remainingTokens(String tenant, String model) {
    Allowance a = allowance(tenant, model);
    if (a == null) {
      return -1;
    }
    a.refill(nanos.getAsLong());
    return a.remainingTokens();
  }

  private Allowance allowance(String tenant, String model) {
    Allowance exact = model == null ? null : byKey.get(key(tenant, model));
    return exact != null ? exact : byKey.get(key(tenant, null));
  }

  /** This replica's own use of each budget since it started, net of what it gave back. */
  public synchronized List<BudgetUse> ownUse() {
    List<BudgetUse> out = new ArrayList<>(byKey.size());
    for (Allowance a : byKey.values()) {
      Budget b = a.budget();
      out.add(new BudgetUse(b.tenant(), b.model(), a.ownTokens(), a.ownRequests()));
    }
    return out;
  }

  /**
   * Folds {@code member}'s reported use in: what it charged since its previous report comes off
   * these buckets too (what it gave back is given back). A member's first report is only its
   * baseline (its earlier use is in the past minute or beyond: not known when), and a budget this
   * replica does not have is ignored.
   */
  public synchronized void foldPeer(String member, List<BudgetUse> uses) {
    Map<String, long[]> last = peerUse.computeIfAbsent(member, k -> new HashMap<>());
    long now = nanos.getAsLong();
    for (BudgetUse u : uses) {
      String key = key(u.tenant(), u.model());
      Allowance a = byKey.get(key);
      if (a == null) {
        continue;
      }
      long[] before = last.put(key, new long[] {u.tokens(), u.requests()});
      if (before == null) {
        continue; // a baseline: the member's first report of this budget
      }
      long tokens = u.tokens() - before[0];
      long requests = u.requests() - before[1];
      a.refill(now);
      a.charge(tokens, requests);
      peerTokens += tokens;
      peerRequests += requests;
    }
  }

  /**
   * Every budget's balance now: what a replica that joins late starts from ({@link #adoptLevels}).
   */
  public synchronized List<BudgetLevel> levels() {
    long now = nanos.getAsLong();
    List<BudgetLevel> out = new ArrayList<>(byKey.size());
    for (Allowance a : byKey.values()) {
      a.refill(now);
      out.add(new BudgetLevel(a.budget(), a.tokens(), a.requests()));
    }
    return out;
  }

  /**
   * Takes a peer's balances ({@link #levels}, from its snapshot): each of these budgets (the same
   * tenant, model and limits; others are ignored) holds at most what the peer's does. Peers report
   * their use only from their first report on (a baseline), so without this a replica that joined
   * late would start with full buckets and admit up to one more budget in the first minute; after a
   * partition, each side keeps the lower of the two balances.
   */
  public synchronized void adoptLevels(List<BudgetLevel> levels) {
    long now = nanos.getAsLong();
    for (BudgetLevel level : levels) {
      Budget b = level.budget();
      Allowance a = byKey.get(key(b.tenant(), b.model()));
      if (a != null && a.budget().equals(b)) {
        a.refill(now);
        a.lowerTo(level.tokens(), level.requests());
      }
    }
  }

  /** Forgets peers no longer in {@code members}: one that comes back starts from a new baseline. */
  public synchronized void retainPeers(Collection<String> members) {
    peerUse.keySet().retainAll(members);
  }

  /** Peers whose use is folded in now. */
  public synchronized int peers() {
    return peerUse.size();
  }

  /** Tokens the peers' reports have charged to these budgets, net. */
  public synchronized long peerTokens() {
    return peerTokens;
  }

  /** Requests the peers' reports have charged to these budgets, net. */
  public synchronized long peerRequests() {
    return peerRequests;
  }

  /** Requests left in {@code tenant}'s budget for {@code model} now, or -1 without a limit. */
  public synchronized long remainingRequests(String tenant, String model) {
    Allowance a = allowance(tenant, model);
    if (a == null) {
      return -1;
    }
    a.refill(nanos.getAsLong());
    return a.remainingRequests();
  }

  /**
   * Enforces the configured budgets plus {@code cluster}'s (from TenantBudget objects; one for the
   * same tenant and model replaces the configured one). A budget whose limits did not change keeps
   * its balance; a new or changed one starts with a full minute.
   */
  public synchronized void useClusterBudgets(List<Budget> cluster) {
    Map<String, Budget> wanted = new HashMap<>();
    for (Budget b : configured) {
      wanted.put(key(b.tenant(), b.model()), b);
    }
    for (Budget b : cluster) {
      wanted.put(key(b.tenant(), b.model()), b);
    }
    long now = nanos.getAsLong();
    byKey.keySet().retainAll(wanted.keySet());
    wanted.forEach(
        (key, b) -> {
          Allowance a = byKey.get(key);
          if (a == null || !a.budget().equals(b)) {
            byKey.put(key, new Allowance(b, now));
          }
        });
  }

  /**
   * What {@code budget} (exactly that tenant and model) has left now: tokens and requests, each -1
   * without that limit; null when it is not enforced.
   */
  public synchronized long[] remaining(Budget budget) {
    Allowance a = byKey.get(key(budget.tenant(), budget.model()));
    if (a == null || !a.budget().equals(budget)) {
      return null;
    }
    a.refill(nanos.getAsLong());
    return new long[] {a.remainingTokens(), a.remainingRequests()};
  }

  /** The configured budgets. */
  public synchronized List<Budget> budgets() {
    return byKey.values().stream().map(Allowance::budget).toList();
  }
}
