package dev.pointsman.gateway.proxy;

import dev.pointsman.gateway.config.GatewayConfig;
import dev.pointsman.gateway.extproc.PickerClient;
import dev.pointsman.gateway.telemetry.GatewayMetrics;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The data plane, bound: one event-loop group shared by client connections, model-server
 * connections and the gRPC channel to the picker. Thread-safe.
 */
public final class ProxyServer implements AutoCloseable {
  private final EventLoopGroup boss;
  private final EventLoopGroup workers;
  private final ScheduledExecutorService tlsChecks;
  private final PickerClient picker;
  private final ListenerTls tls;
  private final Channel server;

  private ProxyServer(GatewayConfig config, GatewayMetrics metrics) {
    this.boss = new NioEventLoopGroup(1, new DefaultThreadFactory("gateway-accept", true));
    this.workers = new NioEventLoopGroup(0, new DefaultThreadFactory("gateway", true));
    this.tlsChecks =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("gateway-tls-reload").daemon(true).factory());
    this.tls = ListenerTls.resolve(config.listen().toTls(), tlsChecks);
    this.picker =
        new PickerClient(config.picker(), config.timeouts().pickerConnect(), workers, tlsChecks);
    tls.reloader().ifPresent(r -> metrics.tlsReloads("listener", r));
    picker.trust().ifPresent(r -> metrics.tlsReloads("picker-ca", r));
    ProxyContext gw = ProxyContext.create(config, picker, metrics);
    this.server = bind(config, gw);
  }

  private Channel bind(GatewayConfig config, ProxyContext gw) {
    try {
      return new ServerBootstrap()
          .group(boss, workers)
          .channel(NioServerSocketChannel.class)
          .option(ChannelOption.SO_BACKLOG, 1024)
          .childOption(ChannelOption.TCP_NODELAY, true)
          .childHandler(new ClientPipeline(gw, tls.context().orElse(null)))
          .bind(config.listen().host(), config.listen().port())
          .syncUninterruptibly()
          .channel();
    } catch (RuntimeException e) {
      shutdown();
      throw new IllegalStateException(
          "listen: cannot bind "
              + config.listen().host()
              + ":"
              + config.listen().port()
              + " ("
              + e
              + ")",
          e);
    }
  }

  /** Binds the listener and opens the picker channel. */
  public static ProxyServer start(GatewayConfig config, GatewayMetrics metrics) {
    return new ProxyServer(config, metrics);
  }

  public int port() {
    return ((InetSocketAddress) server.localAddress()).getPort();
  }

  /** The listener's certificate as PEM (what clients trust); empty in plaintext mode. */
  public Optional<String> certificatePem() {
    return tls.certificatePem();
  }

  /** The channel to the picker (its trust reloader, for an immediate check). */
  public PickerClient picker() {
    return picker;
  }

  @Override
  public void close() {
    server.close().syncUninterruptibly();
    shutdown();
  }

  private void shutdown() {
    tlsChecks.shutdownNow();
    picker.close();
    boss.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
