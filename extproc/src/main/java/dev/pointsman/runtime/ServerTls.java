package dev.pointsman.runtime;

import io.grpc.netty.GrpcSslContexts;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import javax.net.ssl.SSLException;

/**
 * The server side of a {@link Tls} setting, resolved: the key and chain (generated, or read from
 * files and read again when they change), and the Netty context with ALPN {@code h2} built from
 * them.
 *
 * @param reloader in FILES mode, what keeps the pair in step with the files
 */
record ServerTls(
    Optional<SslContext> sslContext,
    Supplier<Optional<String>> certificatePem,
    Optional<CertificateReloader> reloader) {

  static ServerTls resolve(Tls tls) {
    return switch (tls.mode()) {
      case PLAINTEXT -> new ServerTls(Optional.empty(), Optional::empty, Optional.empty());
      case SELF_SIGNED -> {
        var selfSigned = SelfSigned.generate(tls.hostnames());
        yield of(selfSigned.privateKey(), List.of(selfSigned.certificate()));
      }
      case FILES -> reloading(new CertificateReloader(tls.certChain(), tls.privateKey()));
    };
  }

  private static ServerTls of(PrivateKey key, List<X509Certificate> chain) {
    try {
      SslContext context =
          GrpcSslContexts.configure(
                  SslContextBuilder.forServer(key, chain.toArray(X509Certificate[]::new)))
              .build();
      var pem = new StringBuilder();
      chain.forEach(certificate -> pem.append(Pem.encode(certificate)));
      Optional<String> fixed = Optional.of(pem.toString());
      return new ServerTls(Optional.of(context), () -> fixed, Optional.empty());
    } catch (SSLException e) {
      throw new IllegalArgumentException("tls: unusable key or certificate: " + e.getMessage(), e);
    }
  }

  /** Every handshake asks the reloader's key manager for the pair in use at that moment. */
  private static ServerTls reloading(CertificateReloader reloader) {
    try {
      SslContext context =
          GrpcSslContexts.configure(SslContextBuilder.forServer(reloader.keyManager())).build();
      return new ServerTls(
          Optional.of(context),
          () -> Optional.of(reloader.certificatePem()),
          Optional.of(reloader));
    } catch (SSLException e) {
      throw new IllegalArgumentException("tls: unusable key or certificate: " + e.getMessage(), e);
    }
  }
}
