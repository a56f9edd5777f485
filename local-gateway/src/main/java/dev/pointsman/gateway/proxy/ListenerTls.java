package dev.pointsman.gateway.proxy;

import dev.pointsman.runtime.Pem;
import dev.pointsman.runtime.SelfSigned;
import dev.pointsman.runtime.Tls;
import io.netty.handler.codec.http2.Http2SecurityUtil;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
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
 * The listener's TLS: TLS 1.2 and 1.3, ALPN {@code h2} then {@code http/1.1}, with a generated
 * self-signed certificate or PEM files.
 *
 * @param context the server context, empty in plaintext mode
 * @param certificatePem what clients trust, empty in plaintext mode
 */
public record ListenerTls(Optional<SslContext> context, Optional<String> certificatePem) {

  public static ListenerTls resolve(Tls tls) {
    return switch (tls.mode()) {
      case PLAINTEXT -> new ListenerTls(Optional.empty(), Optional.empty());
      case SELF_SIGNED -> {
        SelfSigned s = SelfSigned.generate(tls.hostnames());
        yield of(s.privateKey(), List.of(s.certificate()));
      }
      case FILES ->
          of(
              Pem.readPrivateKey(read("listen.privateKey", tls.privateKey())),
              Pem.readCertificates(read("listen.certChain", tls.certChain())));
    };
  }

  private static ListenerTls of(PrivateKey key, List<X509Certificate> chain) {
    try {
      SslContext ctx =
          SslContextBuilder.forServer(key, chain.toArray(X509Certificate[]::new))
              .sslProvider(SslProvider.JDK)
              .protocols("TLSv1.3", "TLSv1.2")
              .ciphers(Http2SecurityUtil.CIPHERS, SupportedCipherSuiteFilter.INSTANCE)
              .applicationProtocolConfig(
                  new ApplicationProtocolConfig(
                      ApplicationProtocolConfig.Protocol.ALPN,
                      ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                      ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
                      ApplicationProtocolNames.HTTP_2,
                      ApplicationProtocolNames.HTTP_1_1))
              .build();
      StringBuilder pem = new StringBuilder();
      chain.forEach(c -> pem.append(Pem.encode(c)));
      return new ListenerTls(Optional.of(ctx), Optional.of(pem.toString()));
    } catch (SSLException e) {
      throw new IllegalArgumentException(
          "listen.tls: unusable key or certificate (" + e.getMessage() + ")", e);
    }
  }

  private static String read(String what, Path path) {
    try {
      return Files.readString(path);
    } catch (IOException e) {
      throw new UncheckedIOException(what + ": cannot read " + path + " (" + e + ")", e);
    }
  }
}
