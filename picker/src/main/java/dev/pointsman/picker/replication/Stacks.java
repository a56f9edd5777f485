package dev.pointsman.picker.replication;

import dev.pointsman.picker.config.ReplicationSection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import org.jgroups.protocols.BARRIER;
import org.jgroups.protocols.FD_ALL3;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.FRAG4;
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.MFC;
import org.jgroups.protocols.TCP;
import org.jgroups.protocols.TCPPING;
import org.jgroups.protocols.UFC;
import org.jgroups.protocols.UNICAST3;
import org.jgroups.protocols.VERIFY_SUSPECT2;
import org.jgroups.protocols.dns.DNS_PING;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.protocols.pbcast.STABLE;
import org.jgroups.protocols.pbcast.STATE;
import org.jgroups.stack.Protocol;

/**
 * The JGroups protocol stack, built in code from the {@code replication} section: JGroups' own
 * {@code tcp.xml} (TCP transport, discovery, merge, failure detection, reliable ordered delivery,
 * membership, flow control, fragmentation), with DNS_PING against a headless Service or TCPPING
 * with static members for discovery, and streaming state transfer (STATE) for snapshots.
 */
final class Stacks {
  private Stacks() {}

  static List<Protocol> of(ReplicationSection cfg) throws UnknownHostException {
    long failure = cfg.failureMillis();
    List<Protocol> stack = new ArrayList<>();
    stack.add(
        new TCP()
            .setBindAddress(InetAddress.getByName(cfg.bindAddress()))
            .setBindPort(cfg.bindPort())
            .setPortRange(0));
    stack.add(discovery(cfg));
    stack.add(new MERGE3().setMinInterval(cfg.mergeMillis() / 4).setMaxInterval(cfg.mergeMillis()));
    stack.add(new FD_SOCK2());
    stack.add(new FD_ALL3().setTimeout(failure).setInterval(Math.max(25, failure / 4)));
    stack.add(new VERIFY_SUSPECT2().setTimeout(Math.max(50, failure / 4)));
    // A joiner closes its barrier while it reads a snapshot; if the provider vanishes mid-stream
    // (a partition during the join) the read never ends, and the barrier would hold every message
    // and view back for BARRIER's own default of a minute. Twice the state timeout bounds it.
    stack.add(new BARRIER().setMaxCloseTime(2L * cfg.stateTimeoutMillis()));
    stack.add(new NAKACK2().useMcastXmit(false));
    stack.add(new UNICAST3());
    stack.add(new STABLE());
    stack.add(new GMS().setJoinTimeout(Math.min(2_000, failure)).printLocalAddress(false));
    stack.add(new MFC());
    stack.add(new UFC());
    stack.add(new FRAG4());
    stack.add(new STATE());
    return stack;
  }

  private static Protocol discovery(ReplicationSection cfg) {
    ReplicationSection.Discovery d = cfg.discovery();
    if (d.dnsQuery() != null) {
      return new DNS_PING().setDNSQuery(d.dnsQuery());
    }
    List<InetSocketAddress> hosts = new ArrayList<>();
    for (String m : d.members()) {
      int colon = m.lastIndexOf(':');
      hosts.add(
          new InetSocketAddress(m.substring(0, colon), Integer.parseInt(m.substring(colon + 1))));
    }
    return new TCPPING().setInitialHosts(hosts).setPortRange(0);
  }
}
