package dev.pointsman.sim.server;

import dev.pointsman.sim.engine.Engine;
import dev.pointsman.sim.engine.EngineConfig;
import dev.pointsman.sim.engine.GpuProfile;
import dev.pointsman.sim.engine.GpuProfiles;
import dev.pointsman.sim.engine.KvOffload;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import java.net.InetSocketAddress;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.LongSupplier;

/**
 * A running fleet of simulated model servers: one Netty HTTP/1.1 server per pod on a shared event
 * loop group, all engines driven in real time by one scheduler thread. Thread-safe.
 */
public final class Fleet implements AutoCloseable {
  private final EventLoopGroup group;
  private final ScheduledExecutorService scheduler;
  private final List<Channel> channels = new ArrayList<>();
  private final List<SimPod> pods = new ArrayList<>();
  private final List<KvEventPublisher> publishers = new ArrayList<>();
  private RealTimeDriver driver;

  private Fleet(EventLoopGroup group, ScheduledExecutorService scheduler) {
    this.group = group;
    this.scheduler = scheduler;
  }

  /** Starts {@code config} with the system clocks. */
  public static Fleet start(FleetConfig config, GpuProfiles profiles) {
    return start(config, profiles, InstantSource.system(), System::nanoTime);
  }

  /** Starts {@code config}; {@code nanoTime} drives the engines, {@code clock} stamps responses. */
  public static Fleet start(
      FleetConfig config, GpuProfiles profiles, InstantSource clock, LongSupplier nanoTime) {
    config.checkGpus(profiles, "fleet");
    ScheduledExecutorService scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "sim-driver");
              t.setDaemon(true);
              return t;
            });
    Fleet fleet = new Fleet(new NioEventLoopGroup(2), scheduler);
    try {
      RealTimeDriver driver = new RealTimeDriver(scheduler, nanoTime);
      fleet.driver = driver;
      for (int i = 0; i < config.pods().size(); i++) {
        fleet.startPod(config, i, profiles, driver, clock);
      }
      return fleet;
    } catch (RuntimeException e) {
      fleet.close();
      throw e;
    }
  }

  private void startPod(
      FleetConfig config, int n, GpuProfiles profiles, RealTimeDriver driver, InstantSource clock) {
    PodConfig pc = config.pods().get(n);
    long seed = config.seed() + n;
    GpuProfile profile = profiles.get(pc.gpu(), pc.shape());
    EngineOptions options = pc.engineOptions();
    EngineConfig ec =
        EngineConfig.of(pc.name(), pc.model(), profile)
            .withLoras(pc.maxLoras(), pc.maxCpuLoras())
            .withOffload(
                KvOffload.forPod(
                    options.kvOffloadGiB(),
                    KvOffload.DEFAULT_GB_PER_SECOND,
                    profiles.model(pc.shape()),
                    profile));
    KvEventPublisher events =
        options.kvEventsPort() == null
            ? null
            : new KvEventPublisher(
                pc.host(), options.kvEventsPort(), options.kvReplayPort(), "", 0);
    publishers.add(events);
    int index =
        driver.addPod(
            i -> {
              Engine e = new Engine(ec, i, driver.listener(), config.world(), config.seed());
              if (events != null) {
                e.listenToKvCache(events);
              }
              return e;
            });
    SimPod pod = new SimPod(pc, ec, index, driver, seed, clock);
    ServerBootstrap b =
        new ServerBootstrap()
            .group(group)
            .channel(NioServerSocketChannel.class)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline()
                        .addLast(
                            new HttpServerCodec(),
                            new LingeringAggregator(pod, 8 << 20),
                            new PodHttpHandler(pod));
                  }
                });
    channels.add(b.bind(pc.host(), pc.port()).syncUninterruptibly().channel());
    pods.add(pod);
  }

  /** Base URLs of the pods, in config order, e.g. {@code http://127.0.0.1:40123}. */
  public List<String> urls() {
    List<String> urls = new ArrayList<>();
    for (Channel ch : channels) {
      InetSocketAddress a = (InetSocketAddress) ch.localAddress();
      urls.add("http://" + a.getHostString() + ":" + a.getPort());
    }
    return urls;
  }

  /** Pod names, in config order. */
  public List<String> names() {
    return pods.stream().map(SimPod::name).toList();
  }

  /**
   * The KV-event PUB and replay ports of the pods, in config order; {@code [0, 0]} for a pod that
   * publishes none.
   */
  public List<int[]> kvEventPorts() {
    return publishers.stream()
        .map(p -> p == null ? new int[] {0, 0} : new int[] {p.pubPort(), p.replayPort()})
        .toList();
  }

  /** Content hashes of the blocks in pod {@code pod}'s prefix cache now. */
  public long[] cachedBlockHashes(int pod) {
    return driver.call(() -> driver.engine(pods.get(pod).index).cachedBlockHashes()).join();
  }

  /** Content hashes of the blocks in pod {@code pod}'s CPU tier; none without offloading. */
  public long[] offloadedBlockHashes(int pod) {
    return driver.call(() -> driver.engine(pods.get(pod).index).offloadedBlockHashes()).join();
  }

  /** Stops serving and releases threads. */
  @Override
  public void close() {
    publishers.stream().filter(p -> p != null).forEach(KvEventPublisher::close);
    channels.forEach(ch -> ch.close().syncUninterruptibly());
    group.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    scheduler.shutdownNow();
  }
}
