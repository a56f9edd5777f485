package dev.pointsman.picker.flowcontrol;

/** Told what flow control does, for metrics. Called under the caller's lock: keep it cheap. */
public interface FlowListener {
  /** A request started waiting. */
  void queued(FlowRequest request);

  /** A waiting request left the queue (dispatched or dropped) after {@code waitNanos}. */
  void dequeued(FlowRequest request, long waitNanos);

  /** A request was refused, queued or not. */
  void rejected(FlowRequest request, DropReason reason);

  FlowListener NONE =
      new FlowListener() {
        @Override
        public void queued(FlowRequest request) {}

        @Override
        public void dequeued(FlowRequest request, long waitNanos) {}

        @Override
        public void rejected(FlowRequest request, DropReason reason) {}
      };
}
