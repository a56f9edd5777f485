package dev.pointsman.cli.demo;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Optional;

/**
 * Checks, before anything starts, that the fixed ports the demo needs can be bound, so a busy port
 * fails at once with the flag that moves it rather than after the first phase with a raw
 * BindException. Every other port of the demo is ephemeral. A check, not a reservation: the port is
 * released again at once, so a process that takes it in between still wins the race.
 */
final class PortCheck {
  private PortCheck() {}

  /**
   * Why {@code port} cannot be bound on loopback, or empty if it can (or is 0, any free port).
   *
   * @param flag the flag that moves it, named in the message
   */
  static Optional<String> problem(int port, String flag) {
    if (port == 0) {
      return Optional.empty();
    }
    if (port < 0 || port > 65_535) {
      return Optional.of(flag + ": " + port + " (expected 0..65535)");
    }
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
      return Optional.empty();
    } catch (IOException e) {
      return Optional.of(
          "port "
              + port
              + " is not free on 127.0.0.1 ("
              + e.getMessage()
              + "); choose another with "
              + flag
              + " PORT");
    }
  }
}
