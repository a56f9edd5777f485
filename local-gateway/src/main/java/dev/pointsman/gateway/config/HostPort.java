package dev.pointsman.gateway.config;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * A {@code host:port} pair: an IPv4 literal, a bracketed IPv6 literal ({@code [::1]:8000}) or, for
 * configured endpoints only, a DNS name.
 *
 * @param host the host, without brackets
 * @param port the port, 1..65535
 */
public record HostPort(String host, int port) {
  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?");

  public HostPort {
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("host: '" + host + "' (expected a host)");
    }
    if (port < 1 || port > 65_535) {
      throw new IllegalArgumentException("port: " + port + " (expected 1..65535)");
    }
  }

  /** Parses {@code host:port}, allowing DNS names (configured endpoints). */
  public static HostPort parse(String text) {
    HostPort hp = split(text);
    if (!isIpLiteral(hp.host) && !NAME.matcher(hp.host).matches()) {
      throw new IllegalArgumentException("'" + text + "' (expected host:port)");
    }
    return hp;
  }

  /**
   * Parses exactly one {@code ip:port} with an IP literal, as Envoy's ORIGINAL_DST cluster requires
   * of {@code x-gateway-destination-endpoint}: no names, no lists.
   */
  public static HostPort parseIpLiteral(String text) {
    HostPort hp = split(text);
    if (!isIpLiteral(hp.host)) {
      throw new IllegalArgumentException("'" + text + "' (expected one ip:port)");
    }
    return hp;
  }

  private static HostPort split(String text) {
    if (text == null || text.isBlank() || text.contains(",") || text.contains(" ")) {
      throw new IllegalArgumentException("'" + text + "' (expected one host:port)");
    }
    int colon = text.lastIndexOf(':');
    if (colon <= 0 || colon == text.length() - 1) {
      throw new IllegalArgumentException("'" + text + "' (expected host:port)");
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    } else if (host.contains(":")) {
      throw new IllegalArgumentException("'" + text + "' (expected [ipv6]:port)");
    }
    try {
      return new HostPort(host, Integer.parseInt(text.substring(colon + 1)));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' (expected a numeric port)", e);
    }
  }

  private static boolean isIpLiteral(String host) {
    if (IPV4.matcher(host).matches()) {
      for (String part : host.split("\\.")) {
        if (Integer.parseInt(part) > 255) {
          return false;
        }
      }
      return true;
    }
    return host.contains(":") && host.matches("[0-9A-Fa-f:.]+");
  }

  /** A resolved socket address (literals never touch DNS). */
  public InetSocketAddress toSocketAddress() {
    if (isIpLiteral(host)) {
      try {
        return new InetSocketAddress(InetAddress.getByName(host), port);
      } catch (UnknownHostException e) {
        throw new IllegalArgumentException("'" + host + "' (expected an IP literal)", e);
      }
    }
    return InetSocketAddress.createUnresolved(host, port);
  }

  @Override
  public String toString() {
    return host.contains(":") ? "[" + host + "]:" + port : host + ":" + port;
  }
}
