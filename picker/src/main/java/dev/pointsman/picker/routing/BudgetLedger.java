package dev.pointsman.picker.routing;

import dev.pointsman.extproc.Completion;
import dev.pointsman.picker.flowcontrol.TokenBudgets;
import dev.pointsman.picker.scheduling.InFlightTracker;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which budget reservation each routed request holds, by its in-flight hold, until it settles from
 * the response's usage. Thread-safe.
 */
final class BudgetLedger {
  private final TokenBudgets budgets;
  private final Map<InFlightTracker.Ticket, TokenBudgets.Reservation> held =
      new ConcurrentHashMap<>();

  BudgetLedger(TokenBudgets budgets) {
    this.budgets = budgets;
  }

  TokenBudgets budgets() {
    return budgets;
  }

  /** {@code r} was routed (and delivered): it settles when {@code routed} ends. */
  void routed(RouteOutcome.Routed routed, TokenBudgets.Reservation r) {
    if (r != TokenBudgets.Reservation.NONE) {
      held.put(routed.picked().ticket(), r);
    }
  }

  /** {@code routed} was never delivered: its reservation is given back by {@link #release}. */
  void forget(RouteOutcome.Routed routed) {
    held.remove(routed.picked().ticket());
  }

  /** A request that never reached a model server gives its reservation back. */
  void release(TokenBudgets.Reservation r) {
    budgets.release(r);
  }

  /** A retry landed on a fallback: the reservation follows the hold. */
  void moved(RouteOutcome.Routed before, RouteOutcome.Routed now) {
    if (now.picked().ticket() != before.picked().ticket()) {
      TokenBudgets.Reservation r = held.remove(before.picked().ticket());
      if (r != null) {
        held.put(now.picked().ticket(), r);
      }
    }
  }

  /** Settles with the tokens the response's usage reports (none reported: the estimate stays). */
  void completed(RouteOutcome.Routed routed, Completion completion) {
    TokenBudgets.Reservation r = held.remove(routed.picked().ticket());
    if (r != null) {
      budgets.settle(r, completion.usage().tokens());
    }
  }
}
