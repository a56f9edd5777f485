package dev.pointsman.picker.replication;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports free on 127.0.0.1 now, for members that must know each other's ports before they bind.
 *
 * <p>They are taken below the kernel's ephemeral range ({@code ip_local_port_range}), where no
 * outgoing connection and no {@code bind(0)} of another test can take one between this probe and
 * the member's own bind; a port from {@code new ServerSocket(0)} could be (a full build opens
 * thousands of client sockets). Each port also leaves free the ports JGroups' socket failure
 * detector takes beside it ({@code FD_SOCK2}: the transport's port + 100 to + 103, any address).
 */
public final class LoopbackPorts {
  /** FD_SOCK2's default offset and port range above the transport's port. */
  private static final int FD_SOCK_OFFSET = 100;

  private static final int FD_SOCK_RANGE = 4;

  private LoopbackPorts() {}

  public static int[] free(int n) {
    int top = ephemeralStart() - FD_SOCK_OFFSET - FD_SOCK_RANGE;
    int bottom = Math.max(1_024, Math.min(10_000, top - 1_000));
    if (top <= bottom) {
      throw new IllegalStateException("no room below the ephemeral port range for test ports");
    }
    List<Integer> out = new ArrayList<>();
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int tries = 0; out.size() < n; tries++) {
      if (tries > 10_000) {
        throw new IllegalStateException(
            "no " + n + " free ports in [" + bottom + ", " + top + ") on 127.0.0.1");
      }
      int port = random.nextInt(bottom, top);
      if (!out.contains(port) && bindable(port) && fdSockPortsFree(port)) {
        out.add(port);
      }
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  private static boolean fdSockPortsFree(int port) {
    for (int p = port + FD_SOCK_OFFSET; p < port + FD_SOCK_OFFSET + FD_SOCK_RANGE; p++) {
      if (!bindable(p)) {
        return false;
      }
    }
    return true;
  }

  private static boolean bindable(int port) {
    try (ServerSocket s = new ServerSocket()) {
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** The first port the kernel hands out for {@code bind(0)} and outgoing connections. */
  private static int ephemeralStart() {
    // read as a stream: Files.readString trusts the size /proc reports and cuts the line short
    try (var in = Files.newBufferedReader(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
      return Integer.parseInt(in.readLine().trim().split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      return 32_768; // Linux's default; macOS and Windows start at 49,152
    }
  }
}
