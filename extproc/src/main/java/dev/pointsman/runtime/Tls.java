package dev.pointsman.runtime;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * How a server listener secures its connections.
 *
 * <p>{@link Mode#SELF_SIGNED} is the default: a fresh EC P-256 key and a one-year certificate are
 * generated at start, with SANs {@code localhost}, {@code 127.0.0.1} and {@code hostnames}; the
 * server exposes the certificate PEM so clients can trust it. {@link Mode#FILES} loads a PEM
 * certificate chain and a PEM private key (PKCS#8, PKCS#1 RSA or SEC1 EC, unencrypted). {@link
 * Mode#PLAINTEXT} is an explicit opt-out for tests and local use.
 *
 * @param mode the TLS mode
 * @param certChain the PEM certificate chain, leaf first (FILES only, else null)
 * @param privateKey the PEM private key (FILES only, else null)
 * @param hostnames extra SANs for the self-signed certificate (DNS names or IP literals)
 * @param clientCa PEM certificate(s) a client's certificate must chain to (mutual TLS: a client
 *     without one is refused at the handshake), or null for no client authentication; FILES only
 */
public record Tls(
    Mode mode, Path certChain, Path privateKey, List<String> hostnames, Path clientCa) {

  /** The TLS modes. */
  public enum Mode {
    /** A certificate generated at start. */
    SELF_SIGNED,
    /** A certificate chain and key read from PEM files. */
    FILES,
    /** No TLS. */
    PLAINTEXT
  }

  public Tls {
    Objects.requireNonNull(mode, "tls.mode: null (expected SELF_SIGNED, FILES or PLAINTEXT)");
    hostnames = List.copyOf(hostnames == null ? List.of() : hostnames);
    for (String host : hostnames) {
      if (host.isBlank()) {
        throw new IllegalArgumentException("tls.hostnames: blank entry (expected a host or IP)");
      }
    }
    if (mode == Mode.FILES && (certChain == null || privateKey == null)) {
      throw new IllegalArgumentException(
          "tls: certChain="
              + certChain
              + ", privateKey="
              + privateKey
              + " (expected both paths in FILES mode)");
    }
    if (mode != Mode.FILES && (certChain != null || privateKey != null)) {
      throw new IllegalArgumentException(
          "tls: certChain/privateKey set in " + mode + " mode (expected only in FILES mode)");
    }
    if (mode != Mode.FILES && clientCa != null) {
      throw new IllegalArgumentException(
          "tls: clientCa set in " + mode + " mode (expected only in FILES mode)");
    }
  }

  /** Without client authentication. */
  public Tls(Mode mode, Path certChain, Path privateKey, List<String> hostnames) {
    this(mode, certChain, privateKey, hostnames, null);
  }

  /**
   * A PEM certificate chain and key, and mutual TLS: clients must present a certificate that chains
   * to one in {@code clientCa}.
   */
  public static Tls mutual(Path certChain, Path privateKey, Path clientCa) {
    return new Tls(
        Mode.FILES, certChain, privateKey, List.of(), Objects.requireNonNull(clientCa, "clientCa"));
  }

  /** A self-signed certificate for {@code localhost}, {@code 127.0.0.1} and {@code hostnames}. */
  public static Tls selfSigned(List<String> hostnames) {
    return new Tls(Mode.SELF_SIGNED, null, null, hostnames);
  }

  /** A self-signed certificate for {@code localhost} and {@code 127.0.0.1} only. */
  public static Tls selfSigned() {
    return selfSigned(List.of());
  }

  /** A PEM certificate chain (leaf first) and a PEM private key. */
  public static Tls files(Path certChain, Path privateKey) {
    return new Tls(Mode.FILES, certChain, privateKey, List.of());
  }

  /** No TLS: for tests and local development only. */
  public static Tls plaintext() {
    return new Tls(Mode.PLAINTEXT, null, null, List.of());
  }
}
