package dev.pointsman.gateway.proxy;

import dev.pointsman.runtime.CertificateReloader;
import dev.pointsman.runtime.GrpcServer;
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
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import javax.net.ssl.SSLException;

/**
 * The listener's TLS: TLS 1.2 and 1.3, ALPN {@code h2} then {@code http/1.1}, with a generated
 * self-signed certificate or PEM files. PEM files are read again every {@link
 * GrpcServer#TLS_RELOAD_PERIOD} and a changed, valid pair is used for new connections from then on
 * (open connections keep theirs); see {@link CertificateReloader}.
 *
 * @param context the server context, empty in plaintext mode
 * @param certificatePem what clients trust (at start), empty in plaintext mode
 * @param reloader in FILES mode, what keeps the pair in step with the files
 */
public record ListenerTls(
    Optional<SslContext> context,
    Optional<String> certificatePem,
    Optional<CertificateReloader> reloader) {

  /**
   * @param checks runs the periodic checks of FILES mode
   */
  public static ListenerTls resolve(Tls tls, ScheduledExecutorService checks) {
    return switch (tls.mode()) {
      case PLAINTEXT -> new ListenerTls(Optional.empty(), Optional.empty(), Optional.empty());
      case SELF_SIGNED -> {
        SelfSigned s = SelfSigned.generate(tls.hostnames());
        StringBuilder pem = new StringBuilder();
        pem.append(Pem.encode(s.certificate()));
        yield new ListenerTls(
            Optional.of(context(SslContextBuilder.forServer(s.privateKey(), s.certificate()))),
            Optional.of(pem.toString()),
            Optional.empty());
      }
      case FILES -> {
        requireReadable("listen.privateKey", tls.privateKey());
        requireReadable("listen.certChain", tls.certChain());
        CertificateReloader reloader;
        try {
          reloader = new CertificateReloader(tls.certChain(), tls.privateKey());
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("listen.tls: " + e.getMessage(), e);
        }
        reloader.start(checks, GrpcServer.TLS_RELOAD_PERIOD);
        yield new ListenerTls(
            Optional.of(context(SslContextBuilder.forServer(reloader.keyManager()))),
            Optional.of(reloader.certificatePem()),
            Optional.of(reloader));
      }
    };
  }

  private static SslContext context(SslContextBuilder builder) {
    try {
      return builder
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
    } catch (SSLException e) {
      throw new IllegalArgumentException(
          "listen.tls: unusable key or certificate (" + e.getMessage() + ")", e);
    }
  }

  private static void requireReadable(String what, Path path) {
    if (!Files.isReadable(path)) {
      throw new UncheckedIOException(
          what + ": cannot read " + path, new IOException("not readable: " + path));
    }
  }
}
