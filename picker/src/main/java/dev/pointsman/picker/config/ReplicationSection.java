package dev.pointsman.picker.config;

import java.util.List;

/**
 * Sharing what the picker learns with its other replicas (in-flight work, prefix inserts, adapter
 * history, latency observations), over an embedded JGroups cluster. Off by default; the Helm chart
 * turns it on when it runs more than one replica. See docs/operator-guide.md.
 *
 * @param enabled whether to join the cluster at all
 * @param cluster the cluster name: replicas with the same name share, others ignore each other
 * @param discovery how replicas find each other: a DNS name or a static list
 * @param bindAddress the address the cluster transport binds (an interface's address, or {@code
 *     0.0.0.0}... is refused: JGroups advertises the bound address, so it must be reachable)
 * @param bindPort the cluster transport's TCP port; 0 picks an ephemeral one (tests)
 * @param batchMillis how often queued updates, and the in-flight work that changed, are sent (5 ms:
 *     replicas that choose on the same state must see each other's work soon, see
 *     docs/benchmarks.md "Picker replicas")
 * @param queueCapacity updates held between two batches; past that they are dropped and counted
 * @param maxMessageBytes the largest message sent; a batch is split to fit
 * @param staleMillis a member whose last report of its in-flight work is older than this no longer
 *     counts; it also reports at least every third of this, unchanged or not
 * @param stateTimeoutMillis how long a joining replica waits for a state snapshot before it serves
 *     cold
 * @param failureMillis a member silent this long is suspected and, once confirmed, leaves the view
 * @param mergeMillis how often split views look for each other to merge (the longest interval)
 * @param expectedMembers the replica count; a view with fewer (and more than one) members is
 *     reported partitioned. 0: unknown, only a view of one is reported (as alone)
 * @param shareLatencies whether each replica also trains its TTFT and TPOT models on the others'
 *     responses (default false: each learns from its own, forgetting per response as fast as the
 *     view's members together would; sharing them makes the replicas' models identical, and
 *     replicas that choose on identical state send the same endpoint the same burst;
 *     docs/benchmarks.md, "Picker replicas")
 */
public record ReplicationSection(
    Boolean enabled,
    String cluster,
    Discovery discovery,
    String bindAddress,
    Integer bindPort,
    Integer batchMillis,
    Integer queueCapacity,
    Integer maxMessageBytes,
    Integer staleMillis,
    Integer stateTimeoutMillis,
    Integer failureMillis,
    Integer mergeMillis,
    Integer expectedMembers,
    Boolean shareLatencies) {

  public static final ReplicationSection DEFAULTS =
      new ReplicationSection(
          null, null, null, null, null, null, null, null, null, null, null, null, null, null);

  /** The default cluster transport port (JGroups' own default for TCP). */
  public static final int DEFAULT_PORT = 7800;

  public ReplicationSection {
    enabled = enabled != null && enabled;
    cluster = cluster == null ? "pointsman-picker" : cluster;
    discovery = discovery == null ? Discovery.NONE : discovery;
    bindAddress = bindAddress == null ? "127.0.0.1" : bindAddress;
    bindPort = bindPort == null ? DEFAULT_PORT : bindPort;
    batchMillis = batchMillis == null ? 5 : batchMillis;
    queueCapacity = queueCapacity == null ? 10_000 : queueCapacity;
    maxMessageBytes = maxMessageBytes == null ? 60_000 : maxMessageBytes;
    staleMillis = staleMillis == null ? 3_000 : staleMillis;
    stateTimeoutMillis = stateTimeoutMillis == null ? 5_000 : stateTimeoutMillis;
    failureMillis = failureMillis == null ? 10_000 : failureMillis;
    mergeMillis = mergeMillis == null ? 10_000 : mergeMillis;
    expectedMembers = expectedMembers == null ? 0 : expectedMembers;
    shareLatencies = shareLatencies != null && shareLatencies;
    if (cluster.isBlank()) {
      throw new IllegalArgumentException("cluster: '' (expected a name)");
    }
    if (bindAddress.isBlank() || bindAddress.equals("0.0.0.0") || bindAddress.equals("::")) {
      throw new IllegalArgumentException(
          "bindAddress: '"
              + bindAddress
              + "' (expected the address of one interface, which peers can reach)");
    }
    check("bindPort", bindPort, 0, 65_535);
    check("batchMillis", batchMillis, 1, 10_000);
    check("queueCapacity", queueCapacity, 1, 1_000_000);
    check("maxMessageBytes", maxMessageBytes, 4_096, 1_000_000);
    check("staleMillis", staleMillis, 3 * batchMillis, 600_000);
    check("stateTimeoutMillis", stateTimeoutMillis, 1, 600_000);
    check("failureMillis", failureMillis, 100, 600_000);
    check("mergeMillis", mergeMillis, 100, 600_000);
    check("expectedMembers", expectedMembers, 0, 1_000);
    if (enabled && discovery.equals(Discovery.NONE)) {
      throw new IllegalArgumentException(
          "discovery: none (expected dnsQuery or members when enabled)");
    }
  }

  /** The same section binding {@code address} (the pod's IP, given on the command line). */
  public ReplicationSection withBindAddress(String address) {
    return new ReplicationSection(
        enabled,
        cluster,
        discovery,
        address,
        bindPort,
        batchMillis,
        queueCapacity,
        maxMessageBytes,
        staleMillis,
        stateTimeoutMillis,
        failureMillis,
        mergeMillis,
        expectedMembers,
        shareLatencies);
  }

  /**
   * How many replicas split the responses each one's latency models learn from, in a view of {@code
   * members} ({@code Scheduler.learnFromShareOf}): all of them, unless every response's latencies
   * are shared, when each learns from every response.
   */
  public int latencySplit(int members) {
    return shareLatencies ? 1 : members;
  }

  private static void check(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          name + ": " + value + " (expected " + min + ".." + max + ")");
    }
  }

  /**
   * How replicas find each other: exactly one of the two.
   *
   * @param dnsQuery a DNS name whose A records are the replicas (a headless Service, e.g. {@code
   *     pointsman-picker-peers.ns.svc.cluster.local}); each is tried at {@code bindPort}
   * @param members static {@code host:port} members (loopback tests, fixed hosts)
   */
  public record Discovery(String dnsQuery, List<String> members) {
    public static final Discovery NONE = new Discovery(null, null);

    public Discovery {
      members = members == null ? List.of() : List.copyOf(members);
      if (dnsQuery != null && dnsQuery.isBlank()) {
        throw new IllegalArgumentException("dnsQuery: '' (expected a DNS name, or leave it out)");
      }
      if (dnsQuery != null && !members.isEmpty()) {
        throw new IllegalArgumentException(
            "members: " + members + " (expected either dnsQuery or members, not both)");
      }
      for (int i = 0; i < members.size(); i++) {
        String m = members.get(i);
        int colon = m.lastIndexOf(':');
        if (colon <= 0 || !port(m.substring(colon + 1))) {
          throw new IllegalArgumentException(
              "members[" + i + "]: '" + m + "' (expected host:port)");
        }
      }
    }

    private static boolean port(String s) {
      try {
        int p = Integer.parseInt(s);
        return p > 0 && p <= 65_535;
      } catch (NumberFormatException e) {
        return false;
      }
    }
  }
}
