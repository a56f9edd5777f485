package dev.pointsman.gateway.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pointsman.runtime.CertificateReloader;
import dev.pointsman.runtime.SelfSigned;
import dev.pointsman.runtime.Tls;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local gateway's listener certificate rotated the way the kubelet updates a Secret volume,
 * over a real TLS socket: a connection open across the rotation goes on, new connections get the
 * new certificate and verify against the new CA only.
 */
class ListenerTlsReloadTest {
  private static final SelfSigned A = SelfSigned.generate(List.of());
  private static final SelfSigned B = SelfSigned.generate(List.of());

  @TempDir Path volume;
  private final AtomicInteger generation = new AtomicInteger();
  private final ScheduledThreadPoolExecutor checks = new ScheduledThreadPoolExecutor(1);
  private EventLoopGroup group;
  private Channel server;
  private ListenerTls tls;

  @BeforeEach
  void start() throws Exception {
    project(A.certificatePem(), A.privateKeyPem());
    Files.createSymbolicLink(volume.resolve("tls.crt"), Path.of("..data/tls.crt"));
    Files.createSymbolicLink(volume.resolve("tls.key"), Path.of("..data/tls.key"));
    tls =
        ListenerTls.resolve(
            Tls.files(volume.resolve("tls.crt"), volume.resolve("tls.key")), checks);
    group = new NioEventLoopGroup(1);
    server =
        new ServerBootstrap()
            .group(group)
            .channel(NioServerSocketChannel.class)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline().addLast(tls.context().orElseThrow().newHandler(ch.alloc()));
                    ch.pipeline().addLast(new Echo());
                  }
                })
            .bind(new InetSocketAddress("127.0.0.1", 0))
            .sync()
            .channel();
  }

  @AfterEach
  void stop() throws Exception {
    server.close().sync();
    group.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.SECONDS).sync();
    checks.shutdownNow();
  }

  @Test
  void anOpenConnectionGoesOnAndNewOnesVerifyAgainstTheNewCaOnly() throws Exception {
    try (SSLSocket open = connect(A)) {
      assertThat(echo(open, "before")).isEqualTo("before");

      project(B.certificatePem(), B.privateKeyPem());
      assertThat(tls.reloader().orElseThrow().check())
          .isEqualTo(CertificateReloader.Outcome.RELOADED);

      assertThat(echo(open, "after")).as("the open connection goes on").isEqualTo("after");
      try (SSLSocket renewed = connect(B)) {
        assertThat(echo(renewed, "new")).isEqualTo("new");
      }
      assertThatThrownBy(() -> connect(A).close()).isInstanceOf(SSLHandshakeException.class);
    }
  }

  @Test
  void aKeyOfAnotherCertificateKeepsTheOldPair() throws Exception {
    project(B.certificatePem(), A.privateKeyPem());
    assertThat(tls.reloader().orElseThrow().check())
        .isEqualTo(CertificateReloader.Outcome.REJECTED);
    try (SSLSocket s = connect(A)) {
      assertThat(echo(s, "still A")).isEqualTo("still A");
    }
  }

  @Test
  void theCheckIsScheduled() {
    assertThat(checks.getQueue()).hasSize(1);
  }

  private SSLSocket connect(SelfSigned trusted) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    InputStream pem =
        new ByteArrayInputStream(trusted.certificatePem().getBytes(StandardCharsets.US_ASCII));
    store.setCertificateEntry(
        "ca", CertificateFactory.getInstance("X.509").generateCertificate(pem));
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(store);
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(null, tmf.getTrustManagers(), null);
    var address = (InetSocketAddress) server.localAddress();
    SSLSocket socket =
        (SSLSocket) ctx.getSocketFactory().createSocket("localhost", address.getPort());
    socket.setSoTimeout(10_000);
    socket.startHandshake();
    return socket;
  }

  private static String echo(SSLSocket socket, String text) throws Exception {
    OutputStream out = socket.getOutputStream();
    out.write((text + "\n").getBytes(StandardCharsets.UTF_8));
    out.flush();
    InputStream in = socket.getInputStream();
    StringBuilder line = new StringBuilder();
    for (int c = in.read(); c != '\n' && c != -1; c = in.read()) {
      line.append((char) c);
    }
    return line.toString();
  }

  /** Writes a new timestamped directory and swaps {@code ..data} to it, as the kubelet does. */
  private void project(String certPem, String keyPem) throws Exception {
    Path dir = Files.createDirectory(volume.resolve("..gen_" + generation.incrementAndGet()));
    Files.writeString(dir.resolve("tls.crt"), certPem);
    Files.writeString(dir.resolve("tls.key"), keyPem);
    Path tmp = volume.resolve("..data_tmp");
    Files.createSymbolicLink(tmp, dir.getFileName());
    Files.move(tmp, volume.resolve("..data"), StandardCopyOption.ATOMIC_MOVE);
  }

  /** Echoes every byte back. */
  private static final class Echo extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      ctx.writeAndFlush(msg);
    }
  }
}
