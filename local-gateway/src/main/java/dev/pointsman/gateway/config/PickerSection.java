package dev.pointsman.gateway.config;

import java.util.List;
import java.util.Locale;

/**
 * The ext_proc server (the picker): where it is and how its certificate is trusted.
 *
 * @param address {@code host:port} of the picker's gRPC listener
 * @param tls {@code tls} (default) or {@code plaintext}
 * @param caFile PEM file of the certificate(s) to trust; with neither caFile nor caPem the JDK's
 *     trust store is used
 * @param caPem the certificate(s) to trust as PEM text (for programmatic use)
 * @param authority the TLS server name to verify, default the address's host
 */
public record PickerSection(
    String address, String tls, String caFile, String caPem, String authority) {

  public static final PickerSection DEFAULTS = new PickerSection(null, null, null, null, null);

  public PickerSection {
    address = address == null ? "127.0.0.1:9002" : address;
    tls = tls == null ? "tls" : tls.toLowerCase(Locale.ROOT);
    try {
      HostPort.parse(address);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("address: " + e.getMessage(), e);
    }
    if (!List.of("tls", "plaintext").contains(tls)) {
      throw new IllegalArgumentException("tls: '" + tls + "' (expected tls or plaintext)");
    }
    if (caFile != null && caPem != null) {
      throw new IllegalArgumentException("caFile/caPem: both set (expected at most one)");
    }
    if (tls.equals("plaintext") && (caFile != null || caPem != null)) {
      throw new IllegalArgumentException("tls: plaintext (expected no caFile or caPem)");
    }
  }

  public HostPort hostPort() {
    return HostPort.parse(address);
  }

  public boolean plaintext() {
    return tls.equals("plaintext");
  }

  /** A TLS picker at {@code address} whose certificate is {@code pem}. */
  public static PickerSection trusting(String address, String pem) {
    return new PickerSection(address, "tls", null, pem, null);
  }

  /** A plaintext picker at {@code address}. */
  public static PickerSection plaintext(String address) {
    return new PickerSection(address, "plaintext", null, null, null);
  }
}
