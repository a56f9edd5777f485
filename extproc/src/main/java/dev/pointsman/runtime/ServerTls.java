package dev.pointsman.runtime;

import io.grpc.netty.GrpcSslContexts;
import io.netty.handler.ssl.ClientAuth;
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
 * @param clientTrust with a client CA (mutual TLS), what keeps the trusted client CAs in step with
 *     their file
 */
record ServerTls(
    Optional<SslContext> sslContext,
    Supplier<Optional<String>> certificatePem,
    Optional<CertificateReloader> reloader,
    Optional<TrustReloader> clientTrust) {

  static ServerTls resolve(Tls tls) {
    return switch (tls.mode()) {
      case PLAINTEXT ->
          new ServerTls(Optional.empty(), Optional::empty, Optional.empty(), Optional.empty());
      case SELF_SIGNED -> {
        var selfSigned = SelfSigned.generate(tls.hostnames());
        yield of(selfSigned.privateKey(), List.of(selfSigned.certificate()));
      }
      case FILES ->
          reloading(
              new CertificateReloader(tls.certChain(), tls.privateKey()),
              tls.clientCa() == null
                  ? Optional.empty()
                  : Optional.of(new TrustReloader("tls.clientCa", tls.clientCa(), false)));
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
      return new ServerTls(Optional.of(context), () -> fixed, Optional.empty(), Optional.empty());
    } catch (SSLException e) {
      throw new IllegalArgumentException("tls: unusable key or certificate: " + e.getMessage(), e);
    }
  }

  /**
   * Every handshake asks the reloader's key manager for the pair in use at that moment and, with
   * {@code clientTrust}, requires a client certificate that the trusted CAs in use then verify.
   */
  private static ServerTls reloading(
      CertificateReloader reloader, Optional<TrustReloader> clientTrust) {
    try {
      SslContextBuilder builder = SslContextBuilder.forServer(reloader.keyManager());
      clientTrust.ifPresent(
          trust -> builder.trustManager(trust.trustManager()).clientAuth(ClientAuth.REQUIRE));
      SslContext context = GrpcSslContexts.configure(builder).build();
      return new ServerTls(
          Optional.of(context),
          () -> Optional.of(reloader.certificatePem()),
          Optional.of(reloader),
          clientTrust);
    } catch (SSLException e) {
      throw new IllegalArgumentException("tls: unusable key or certificate: " + e.getMessage(), e);
    }
  }
}
