package dev.pointsman.picker.extproc;

import dev.pointsman.extproc.Completion;
import dev.pointsman.picker.routing.RouteInput;
import dev.pointsman.picker.routing.RouteOutcome;

/** What the ext_proc service reports, for metrics and the decision log. Must not block. */
public interface ExtProcObserver {

  /** A routing decision was taken for a request whose body was read. */
  void onDecision(RouteInput input, RouteOutcome outcome, long decisionNanos);

  /** A request was refused before routing (bad body, no body, over the limit, …). */
  void onRejected(String reason, int httpStatus);

  /** A routed request's response stream ended. */
  void onCompleted(RouteOutcome.Routed routed, Completion completion);

  /** A processing stream ended: {@code completed}, {@code cancelled} or {@code error}. */
  void onStreamEnd(String how);

  /**
   * Shadow mode with {@code destination: balancer}: the balancer's header named an endpoint that is
   * not one of the decision's candidates, so the reply named no destination.
   */
  default void onBalancerChoiceIgnored() {}

  ExtProcObserver NOOP =
      new ExtProcObserver() {
        @Override
        public void onDecision(RouteInput input, RouteOutcome outcome, long decisionNanos) {}

        @Override
        public void onRejected(String reason, int httpStatus) {}

        @Override
        public void onCompleted(RouteOutcome.Routed routed, Completion completion) {}

        @Override
        public void onStreamEnd(String how) {}
      };
}
