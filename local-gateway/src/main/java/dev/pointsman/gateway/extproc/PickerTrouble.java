package dev.pointsman.gateway.extproc;

import dev.pointsman.gateway.config.PickerSection;
import io.grpc.Status;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.ssl.NotSslRecordException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.security.cert.CertificateException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Why the gateway cannot talk to the picker, said once in a while: one WARN line that names what
 * failed and what to check, at most once per {@link #INTERVAL_NANOS} (with the count of failures
 * since), so that a broken picker does not flood the log. Thread-safe.
 */
public final class PickerTrouble {
  static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(30);
  private static final Logger LOG = LoggerFactory.getLogger(PickerTrouble.class);

  private final PickerSection picker;
  private final LongSupplier nanoTime;
  private final AtomicLong nextLog;
  private final AtomicLong suppressed = new AtomicLong();

  PickerTrouble(PickerSection picker, LongSupplier nanoTime) {
    this.picker = picker;
    this.nanoTime = nanoTime;
    this.nextLog = new AtomicLong(nanoTime.getAsLong());
  }

  /**
   * Reports a failed ext_proc stream; CANCELLED (ours) is not a failure. Returns the line logged,
   * or null when none was (rate-limited or not a failure).
   */
  public String report(Status status) {
    if (status.isOk() || status.getCode() == Status.Code.CANCELLED) {
      return null;
    }
    long now = nanoTime.getAsLong();
    long next = nextLog.get();
    if (now - next < 0 || !nextLog.compareAndSet(next, now + INTERVAL_NANOS)) {
      suppressed.incrementAndGet();
      return null;
    }
    long more = suppressed.getAndSet(0);
    String line =
        describe(picker, status)
            + (more > 0 ? " (" + more + " more failures since last said)" : "");
    LOG.warn(line);
    return line;
  }

  /** One line: what failed talking to the picker, and what to check. */
  static String describe(PickerSection picker, Status status) {
    String at = "cannot use the endpoint picker at " + picker.address() + ": ";
    Throwable cause = status.getCause();
    if (find(cause, CertificateException.class) != null
        || (find(cause, SSLHandshakeException.class) != null
            && String.valueOf(find(cause, SSLHandshakeException.class).getMessage())
                .contains("PKIX"))) {
      return at
          + "its TLS certificate is not trusted ("
          + innermost(cause)
          + "); set picker.caFile (--picker-ca) to the picker's certificate PEM"
          + " (the picker prints it at start; without caFile the JDK trust store is used)";
    }
    if (find(cause, NotSslRecordException.class) != null) {
      return at
          + "it did not answer TLS ("
          + innermost(cause)
          + "); if the picker serves plaintext gRPC, set picker.tls: plaintext (--picker-plaintext)";
    }
    if (find(cause, SSLException.class) != null) {
      return at
          + "TLS handshake failed ("
          + innermost(cause)
          + "); check picker.tls, picker.caFile and picker.authority (the name its certificate"
          + " was issued for)";
    }
    if (find(cause, ConnectTimeoutException.class) != null) {
      return at
          + "connect timed out; check that picker.address is reachable from here"
          + " (and timeouts.pickerConnectMillis)";
    }
    if (find(cause, ConnectException.class) != null) {
      return at
          + "connection refused ("
          + innermost(cause)
          + "); check that the picker runs and listens on picker.address";
    }
    if (find(cause, UnknownHostException.class) != null) {
      return at + "unknown host (" + innermost(cause) + "); check picker.address";
    }
    if (status.getCode() == Status.Code.UNIMPLEMENTED) {
      return at
          + "it does not serve the ext_proc service ("
          + status.getDescription()
          + "); check that picker.address is the picker's gRPC port, not its admin port";
    }
    if (status.getCode() == Status.Code.UNAVAILABLE
        && status.getDescription() != null
        && status.getDescription().contains("plaintext")) {
      return at + status.getDescription() + "; check picker.tls";
    }
    return at
        + "ext_proc stream failed with "
        + status.getCode()
        + (status.getDescription() == null ? "" : " (" + status.getDescription() + ")")
        + (cause == null ? "" : ": " + innermost(cause))
        + "; check the picker's log";
  }

  private static <T extends Throwable> T find(Throwable t, Class<T> type) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (type.isInstance(c)) {
        return type.cast(c);
      }
    }
    return null;
  }

  private static String innermost(Throwable t) {
    Throwable c = t;
    while (c.getCause() != null && c.getCause() != c) {
      c = c.getCause();
    }
    String m = c.getMessage();
    return c.getClass().getSimpleName() + (m == null ? "" : ": " + m);
  }
}
