package dev.pointsman.extproc;

/** Protocol-level events of an ext_proc service, for metrics. Must not block. */
public interface ExtProcEvents {

  /** A request was refused with an immediate response. */
  void onRejected(String reason, int httpStatus);

  /** A processing stream ended: {@code completed}, {@code cancelled} or {@code error}. */
  void onStreamEnd(String how);

  ExtProcEvents NOOP =
      new ExtProcEvents() {
        @Override
        public void onRejected(String reason, int httpStatus) {}

        @Override
        public void onStreamEnd(String how) {}
      };
}
