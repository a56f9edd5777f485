package dev.pointsman.picker.scheduling;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The picker's own accounting of the requests it sent to each endpoint. Scrapes are stale: between
 * two scrapes a burst would all land on the endpoint that looked idle. So every pick is counted
 * here at once, as <em>pending</em> until the endpoint's next scrape (which then reflects it) and
 * as <em>live</em> until its stream ends.
 *
 * <p>With replicas that share what they know, {@link #load} also adds the latest load the other
 * replicas reported ({@link #peerLoads}): one immutable map, replaced whole by the one thread that
 * merges the peers' reports, so reading it on the decision path is one volatile read and a lookup.
 *
 * <p>Thread-safe: shared by all request threads and the scrape publisher. Every operation is O(1)
 * but {@link #sharedInFlight}, which reads the endpoint's live requests.
 */
public final class InFlightTracker {

  private final ConcurrentHashMap<String, Counters> byEndpoint = new ConcurrentHashMap<>();
  private volatile Map<String, Load> peers = Map.of();

  /** No prompt blocks: a pick whose prompt is not matched against others in flight. */
  private static final long[] NO_BLOCKS = new long[0];

  /** Records a pick; the returned ticket must be released when the request's stream ends. */
  public Ticket assign(String address, long promptTokens) {
    return assign(address, promptTokens, promptTokens);
  }

  /**
   * Records a pick whose prompt needs {@code prefillTokens} of prefill (its uncached part); they
   * count as outstanding prefill until {@link Ticket#firstToken()} or release.
   */
  public Ticket assign(String address, long promptTokens, long prefillTokens) {
    return assign(address, promptTokens, prefillTokens, null, false);
  }

  /**
   * Records a pick for LoRA {@code adapter} (null for the base model); {@code load} says the pick
   * makes the endpoint load the adapter, which counts as a load in progress until {@link
   * Ticket#firstToken()} or release.
   */
  public Ticket assign(
      String address, long promptTokens, long prefillTokens, String adapter, boolean load) {
    return assign(address, promptTokens, prefillTokens, adapter, load, NO_BLOCKS);
  }

  /**
   * As {@link #assign(String, long, long, String, boolean)}, for a prompt with these chained
   * prefix-block hashes (not copied: the caller no longer changes them), which {@link
   * #sharedInFlight} reads while the request lives: the ticket holds them until it is released, 8
   * bytes per block (512 bytes for a 4 KB prompt, 32 KB for 256 KB).
   */
  public Ticket assign(
      String address,
      long promptTokens,
      long prefillTokens,
      String adapter,
      boolean load,
      long[] blocks) {
    Counters c = counters(address);
    long epoch;
    synchronized (c) {
      epoch = c.epoch;
      c.pendingRequests++;
      c.pendingTokens += promptTokens;
      if (adapter != null) {
        int[] a = c.adapters.computeIfAbsent(adapter, k -> new int[2]);
        a[LIVE]++;
        if (load) {
          a[LOADING]++;
          c.loads++;
        }
      }
    }
    c.liveRequests.incrementAndGet();
    c.liveTokens.addAndGet(promptTokens);
    c.prefillRequests.incrementAndGet();
    c.prefillTokens.addAndGet(prefillTokens);
    Ticket ticket =
        new Ticket(
            address,
            c,
            epoch,
            promptTokens,
            prefillTokens,
            adapter,
            adapter != null && load,
            blocks);
    if (blocks.length > 0) {
      c.prompts.add(ticket);
    }
    return ticket;
  }

  /**
   * Whether another live request this replica sent to {@code address} shares the first {@code
   * depth} blocks of {@code blocks} and is not an earlier turn of the same prompt: it goes on past
   * them differently, or ends inside them where this one does not. A conversation's next turn,
   * whose previous turn may still be answering, shares its prefix with no one then; a system prompt
   * or a document that many requests start with is shared while any of the others is in flight.
   * Chained hashes make one comparison per request enough: block k is equal only where every block
   * before it is too. O(the endpoint's live requests), stopping at the first sharer; a peer
   * replica's requests are not seen.
   */
  public boolean sharedInFlight(String address, long[] blocks, int depth) {
    if (depth <= 0 || depth > blocks.length) {
      return false;
    }
    Counters c = byEndpoint.get(address);
    if (c == null) {
      return false;
    }
    long key = blocks[depth - 1];
    for (Ticket t : c.prompts) {
      long[] other = t.blocks;
      if (other.length >= depth && other[depth - 1] == key && !earlierTurn(other, blocks)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code other} is a prefix of {@code blocks}: its last block is theirs at that place.
   */
  private static boolean earlierTurn(long[] other, long[] blocks) {
    int n = other.length;
    return n <= blocks.length && other[n - 1] == blocks[n - 1];
  }

  /**
   * Moves a request's hold to {@code address} (a retry landed on a fallback): {@code from} is
   * released, and a ticket with the same prompt, and the same prefill state, is assigned there.
   * Assigning it does not count as triggering an adapter load.
   */
  public Ticket transfer(Ticket from, String address) {
    boolean prefilled = from.prefilled.get();
    from.release();
    Ticket to = assign(address, from.tokens, from.prefill, from.adapter, false, from.blocks);
    if (prefilled) {
      to.firstToken();
    }
    return to;
  }

  /**
   * Adapters with requests the picker sent to {@code address} and that have not finished: this
   * replica's and those its peers last reported.
   */
  public Set<String> liveAdapters(String address) {
    Map<String, AdapterLoad> peer = peerAdapters(address);
    Counters c = byEndpoint.get(address);
    Set<String> own;
    if (c == null) {
      own = Set.of();
    } else {
      synchronized (c) {
        own = c.adapters.isEmpty() ? Set.of() : Set.copyOf(c.adapters.keySet());
      }
    }
    if (peer.isEmpty()) {
      return own;
    }
    Set<String> all = new HashSet<>(own);
    peer.forEach(
        (adapter, a) -> {
          if (a.live() > 0) {
            all.add(adapter);
          }
        });
    return all;
  }

  /**
   * Whether a pick that made {@code address} load {@code adapter} still awaits a first token: one
   * of this replica's, or one a peer last reported.
   */
  public boolean loading(String address, String adapter) {
    if (adapter == null) {
      return false;
    }
    AdapterLoad peer = peerAdapters(address).get(adapter);
    if (peer != null && peer.loading() > 0) {
      return true;
    }
    Counters c = byEndpoint.get(address);
    if (c == null) {
      return false;
    }
    synchronized (c) {
      int[] a = c.adapters.get(adapter);
      return a != null && a[LOADING] > 0;
    }
  }

  /**
   * Adapter loads the picker triggered on {@code address} and has not seen finish: this replica's
   * and its peers'.
   */
  public int loadsInProgress(String address) {
    int peer = 0;
    for (AdapterLoad a : peerAdapters(address).values()) {
      peer += a.loading();
    }
    Counters c = byEndpoint.get(address);
    if (c == null) {
      return peer;
    }
    synchronized (c) {
      return c.loads + peer;
    }
  }

  private Map<String, AdapterLoad> peerAdapters(String address) {
    Load peer = peers.get(address);
    return peer == null ? Map.of() : peer.adapters();
  }

  /**
   * Called when a new scrape of {@code address} is applied: what was pending is now in the scraped
   * figures.
   */
  public void onScrape(String address) {
    Counters c = counters(address);
    synchronized (c) {
      c.epoch++;
      c.pendingRequests = 0;
      c.pendingTokens = 0;
    }
  }

  /**
   * The current load the picker put on {@code address}: its own, plus what the other replicas last
   * reported ({@link #peerLoads}).
   */
  public Load load(String address) {
    Load own = ownLoad(address, false);
    Load peer = peers.get(address);
    return peer == null ? own : own.plus(peer);
  }

  /**
   * Replaces the other replicas' summed load per endpoint (empty when alone). Called by the one
   * thread that merges their reports; {@code merged} is copied.
   */
  public void peerLoads(Map<String, Load> merged) {
    peers = Map.copyOf(merged);
  }

  /** This replica's own load on every endpoint it has counters for: what it reports to peers. */
  public Map<String, Load> ownLoads() {
    Map<String, Load> out = new HashMap<>();
    for (String address : byEndpoint.keySet()) {
      out.put(address, ownLoad(address, true));
    }
    return out;
  }

  /**
   * The load this replica itself put on {@code address}, without its peers', with its live
   * adapters.
   */
  public Load ownLoad(String address) {
    return ownLoad(address, true);
  }

  /** {@code withAdapters} false: without them (a decision reads them through its own calls). */
  private Load ownLoad(String address, boolean withAdapters) {
    Counters c = byEndpoint.get(address);
    if (c == null) {
      return Load.NONE;
    }
    int pendingRequests;
    long pendingTokens;
    Map<String, AdapterLoad> adapters = Map.of();
    synchronized (c) {
      pendingRequests = c.pendingRequests;
      pendingTokens = c.pendingTokens;
      if (withAdapters && !c.adapters.isEmpty()) {
        Map<String, AdapterLoad> copy = new HashMap<>();
        c.adapters.forEach((name, a) -> copy.put(name, new AdapterLoad(a[LIVE], a[LOADING])));
        adapters = copy;
      }
    }
    return new Load(
        pendingRequests,
        pendingTokens,
        (int) c.liveRequests.get(),
        c.liveTokens.get(),
        (int) c.prefillRequests.get(),
        c.prefillTokens.get(),
        adapters);
  }

  /** Forgets endpoints that left every pool. */
  public void retain(Collection<String> addresses) {
    Set<String> keep = new HashSet<>(addresses);
    byEndpoint.keySet().removeIf(a -> !keep.contains(a));
  }

  /** Total live requests across endpoints (for tests and metrics). */
  public long liveRequests() {
    long total = 0;
    for (Counters c : byEndpoint.values()) {
      total += c.liveRequests.get();
    }
    return total;
  }

  private Counters counters(String address) {
    return byEndpoint.computeIfAbsent(address, a -> new Counters());
  }

  /**
   * The picker's own load on one endpoint.
   *
   * @param pendingRequests picked since the endpoint's last scrape and still live
   * @param pendingTokens their prompt tokens
   * @param liveRequests picked and not yet finished
   * @param liveTokens their prompt tokens
   * @param prefillRequests picked and still without a first token: queued or prefilling
   * @param prefillTokens their uncached prompt tokens: the prefill work the picker knows is ahead
   * @param adapters per LoRA adapter with live requests among them: how many, and how many of those
   *     made the endpoint load it and still await a first token (empty: none, or not asked for)
   */
  public record Load(
      int pendingRequests,
      long pendingTokens,
      int liveRequests,
      long liveTokens,
      int prefillRequests,
      long prefillTokens,
      Map<String, AdapterLoad> adapters) {
    public static final Load NONE = new Load(0, 0, 0, 0, 0, 0);

    public Load {
      adapters = Map.copyOf(adapters);
    }

    public Load(int pendingRequests, long pendingTokens, int liveRequests, long liveTokens) {
      this(pendingRequests, pendingTokens, liveRequests, liveTokens, 0, 0);
    }

    public Load(
        int pendingRequests,
        long pendingTokens,
        int liveRequests,
        long liveTokens,
        int prefillRequests,
        long prefillTokens) {
      this(
          pendingRequests,
          pendingTokens,
          liveRequests,
          liveTokens,
          prefillRequests,
          prefillTokens,
          Map.of());
    }

    /** The sum of both loads. */
    public Load plus(Load o) {
      Map<String, AdapterLoad> both;
      if (o.adapters.isEmpty()) {
        both = adapters;
      } else if (adapters.isEmpty()) {
        both = o.adapters;
      } else {
        both = new HashMap<>(adapters);
        o.adapters.forEach((name, a) -> both.merge(name, a, AdapterLoad::plus));
      }
      return new Load(
          pendingRequests + o.pendingRequests,
          pendingTokens + o.pendingTokens,
          liveRequests + o.liveRequests,
          liveTokens + o.liveTokens,
          prefillRequests + o.prefillRequests,
          prefillTokens + o.prefillTokens,
          both);
    }
  }

  /**
   * One adapter's share of an endpoint's load.
   *
   * @param live requests for it that have not finished
   * @param loading those among them that made the endpoint load it and await a first token
   */
  public record AdapterLoad(int live, int loading) {
    public AdapterLoad plus(AdapterLoad o) {
      return new AdapterLoad(live + o.live, loading + o.loading);
    }
  }

  private static final int LIVE = 0;
  private static final int LOADING = 1;

  private static final class Counters {
    long epoch;
    int pendingRequests;
    long pendingTokens;

    /** Per adapter: live requests, and those among them that triggered a load still running. */
    final HashMap<String, int[]> adapters = new HashMap<>();

    /** Loads triggered and not yet seen finish. */
    int loads;

    /** Live tickets with prompt blocks ({@link #sharedInFlight}). */
    final Set<Ticket> prompts = ConcurrentHashMap.newKeySet();

    final AtomicLong liveRequests = new AtomicLong();
    final AtomicLong liveTokens = new AtomicLong();
    final AtomicLong prefillRequests = new AtomicLong();
    final AtomicLong prefillTokens = new AtomicLong();
  }

  /** One picked request's hold on an endpoint. {@link #release()} is idempotent. */
  public static final class Ticket {
    private final String address;
    private final Counters counters;
    private final long epoch;
    private final long tokens;
    private final long prefill;
    private final String adapter;
    private final boolean load;
    private final long[] blocks;
    private final AtomicBoolean released = new AtomicBoolean();
    private final AtomicBoolean prefilled = new AtomicBoolean();

    private Ticket(
        String address,
        Counters counters,
        long epoch,
        long tokens,
        long prefill,
        String adapter,
        boolean load,
        long[] blocks) {
      this.address = address;
      this.counters = counters;
      this.epoch = epoch;
      this.tokens = tokens;
      this.prefill = prefill;
      this.adapter = adapter;
      this.load = load;
      this.blocks = blocks;
    }

    /**
     * The request produced its first token: its prefill is done, and so is any adapter load it
     * waited for. Idempotent.
     */
    public void firstToken() {
      if (prefilled.compareAndSet(false, true)) {
        counters.prefillRequests.decrementAndGet();
        counters.prefillTokens.addAndGet(-prefill);
        if (load) {
          synchronized (counters) {
            int[] a = counters.adapters.get(adapter);
            if (a != null) {
              a[LOADING]--;
            }
            counters.loads--;
          }
        }
      }
    }

    /** The LoRA adapter the request asked for, or null. */
    public String adapter() {
      return adapter;
    }

    public String address() {
      return address;
    }

    /** Releases the hold; only the first call has an effect. Returns whether it had one. */
    public boolean release() {
      if (!released.compareAndSet(false, true)) {
        return false;
      }
      firstToken();
      if (blocks.length > 0) {
        counters.prompts.remove(this);
      }
      counters.liveRequests.decrementAndGet();
      counters.liveTokens.addAndGet(-tokens);
      synchronized (counters) {
        if (counters.epoch == epoch) {
          counters.pendingRequests--;
          counters.pendingTokens -= tokens;
        }
        if (adapter != null) {
          int[] a = counters.adapters.get(adapter);
          if (a != null && --a[LIVE] <= 0) {
            counters.adapters.remove(adapter);
          }
        }
      }
      return true;
    }

    public boolean released() {
      return released.get();
    }
  }
}
