package dev.pointsman.gateway.config;

import dev.pointsman.runtime.Tls;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The client-facing listener. With TLS, ALPN offers {@code h2} and {@code http/1.1}; plaintext
 * serves HTTP/1.1.
 *
 * @param host bind address, default loopback ({@code 127.0.0.1}); an IPv6 literal with or without
 *     brackets ({@code ::1}, {@code [::1]}); {@code ::} accepts IPv4 and IPv6 clients
 * @param port TCP port (0: any free port)
 * @param tls {@code self-signed} (default), {@code files} or {@code plaintext}
 * @param certChain PEM certificate chain, with {@code tls: files}
 * @param privateKey PEM private key, with {@code tls: files}
 * @param hostnames extra SANs of the self-signed certificate
 */
public record ListenSection(
    String host,
    Integer port,
    String tls,
    String certChain,
    String privateKey,
    List<String> hostnames) {

  public static final ListenSection DEFAULTS =
      new ListenSection(null, null, null, null, null, null);

  public ListenSection {
    host = host == null ? "127.0.0.1" : host;
    if (host.length() > 2 && host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    port = port == null ? 8443 : port;
    tls = tls == null ? "self-signed" : tls.toLowerCase(Locale.ROOT);
    hostnames = hostnames == null ? List.of() : List.copyOf(hostnames);
    if (host.isBlank()) {
      throw new IllegalArgumentException("host: '' (expected a bind address)");
    }
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("port: " + port + " (expected 0..65535)");
    }
    if (!List.of("self-signed", "files", "plaintext").contains(tls)) {
      throw new IllegalArgumentException(
          "tls: '" + tls + "' (expected self-signed, files or plaintext)");
    }
    if (tls.equals("files") && (certChain == null || privateKey == null)) {
      throw new IllegalArgumentException(
          "tls: files (expected certChain and privateKey to name PEM files)");
    }
  }

  /** The TLS setting in the shared runtime's terms. */
  public Tls toTls() {
    return switch (tls) {
      case "files" -> Tls.files(Path.of(certChain), Path.of(privateKey));
      case "plaintext" -> Tls.plaintext();
      default -> Tls.selfSigned(hostnames);
    };
  }

  public ListenSection withPort(int newPort) {
    return new ListenSection(host, newPort, tls, certChain, privateKey, hostnames);
  }

  public ListenSection withHost(String newHost) {
    return new ListenSection(newHost, port, tls, certChain, privateKey, hostnames);
  }

  public ListenSection withTls(String newTls) {
    return new ListenSection(host, port, newTls, certChain, privateKey, hostnames);
  }
}
