package dev.pointsman.picker.replication;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Ports free on 127.0.0.1 now, for members that must know each other's ports before they bind. */
public final class LoopbackPorts {
  private LoopbackPorts() {}

  public static int[] free(int n) {
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      for (int i = 0; i < n; i++) {
        sockets.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
      }
      int[] out = sockets.stream().mapToInt(ServerSocket::getLocalPort).toArray();
      for (ServerSocket s : sockets) {
        s.close();
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
