package dev.pointsman.runtime;

import io.grpc.netty.GrpcSslContexts;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLException;

/**
 * The server side of a {@link Tls} setting, resolved: the key and chain (generated or read from
 * files), and the Netty context with ALPN {@code h2} built from them.
 */
record ServerTls(Optional<SslContext> sslContext, Optional<String> certificatePem) {

  static ServerTls resolve(Tls tls) {
    return switch (tls.mode()) {
      case PLAINTEXT -> new ServerTls(Optional.empty(), Optional.empty());
      case SELF_SIGNED -> {
        var selfSigned = SelfSigned.generate(tls.hostnames());
        yield of(selfSigned.privateKey(), List.of(selfSigned.certificate()));
      }
      case FILES ->
          of(
              Pem.readPrivateKey(read("tls.privateKey", tls.privateKey())),
              Pem.readCertificates(read("tls.certChain", tls.certChain())));
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
      return new ServerTls(Optional.of(context), Optional.of(pem.toString()));
    } catch (SSLException e) {
      throw new IllegalArgumentException("tls: unusable key or certificate: " + e.getMessage(), e);
    }
  }

  private static String read(String name, Path path) {
    try {
      return Files.readString(path);
    } catch (IOException e) {
      throw new UncheckedIOException(name + ": cannot read " + path + " (" + e + ")", e);
    }
  }
}
